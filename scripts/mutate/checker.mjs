// A StrykerJS checker that type-checks a mutant's own file only: the file with the
// mutant in it, in a TypeScript language service over the project (other files'
// types are read from them as the check needs). A mutant that does not compile is
// left out of the score, as with Stryker's TypeScript checker; that one rebuilds the
// project for each mutant (~2 s here), this takes a fraction of a second. What it does
// not see: a mutant that changes an inferred type so that only another file stops
// compiling. Such a mutant is run, and counts as killed or survived by the tests.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript';
import { CheckStatus } from '@stryker-mutator/api/check';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

/** Operators a mutant may swap for one another without changing any type (numbers in, the same kind of value out). */
const SAME_TYPES = [new Set(['<', '<=', '>', '>=']), new Set(['-', '*', '/', '%']), new Set(['++', '--'])];

/** What a mutant changed: the original and the replacement without their common start and end. */
const difference = (original, replacement) => {
  let a = 0;
  while (a < original.length && a < replacement.length && original[a] === replacement[a]) a++;
  let b = 0;
  while (
    b < original.length - a &&
    b < replacement.length - a &&
    original[original.length - 1 - b] === replacement[replacement.length - 1 - b]
  )
    b++;
  return [original.slice(a, original.length - b).trim(), replacement.slice(a, replacement.length - b).trim()];
};

class FileTypesChecker {
  static inject = [commonTokens.options];

  constructor(options) {
    this.tsconfig = resolve(options.tsconfigFile ?? 'tsconfig.json');
    this.texts = new Map();
    this.versions = new Map();
    this.originals = new Map();
  }

  async init() {
    const parsed = ts.getParsedCommandLineOfConfigFile(
      this.tsconfig,
      {},
      {
        ...ts.sys,
        onUnRecoverableConfigFileDiagnostic: (d) => {
          throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
        },
      },
    );
    if (parsed === undefined) throw new Error(`cannot read ${this.tsconfig}`);
    const names = parsed.fileNames.map((f) => resolve(f));
    this.project = new Set(names);
    const host = {
      getScriptFileNames: () => names,
      getScriptVersion: (f) => String(this.versions.get(f) ?? 0),
      getScriptSnapshot: (f) => {
        const text = this.texts.get(f) ?? ts.sys.readFile(f);
        return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
      },
      getCurrentDirectory: () => process.cwd(),
      getCompilationSettings: () => parsed.options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  errors(file) {
    return [...this.service.getSyntacticDiagnostics(file), ...this.service.getSemanticDiagnostics(file)];
  }

  /** The file as written, and where its lines start; it must compile as it is. */
  original(file) {
    let o = this.originals.get(file);
    if (o === undefined) {
      const text = readFileSync(file, 'utf8');
      const errors = this.errors(file);
      if (errors.length > 0)
        throw new Error(
          `${file} does not compile as it is: ${ts.flattenDiagnosticMessageText(errors[0].messageText, '\n')}`,
        );
      o = { text, source: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false) };
      this.originals.set(file, o);
    }
    return o;
  }

  set(file, text) {
    this.texts.set(file, text);
    this.versions.set(file, (this.versions.get(file) ?? 0) + 1);
  }

  /** Whether the mutant compiles: its file with it in, checked (a swap of operators that keeps every type is not). */
  checkOne(mutant) {
    const file = resolve(mutant.fileName);
    if (!this.project.has(file)) return { status: CheckStatus.Passed };
    const { text, source } = this.original(file);
    const start = source.getPositionOfLineAndCharacter(mutant.location.start.line, mutant.location.start.column);
    const end = source.getPositionOfLineAndCharacter(mutant.location.end.line, mutant.location.end.column);
    const [was, is] = difference(text.slice(start, end), mutant.replacement);
    if (SAME_TYPES.some((ops) => ops.has(was) && ops.has(is))) return { status: CheckStatus.Passed };
    this.set(file, `${text.slice(0, start)}${mutant.replacement}${text.slice(end)}`);
    try {
      const errors = this.errors(file);
      return errors.length === 0
        ? { status: CheckStatus.Passed }
        : { status: CheckStatus.CompileError, reason: ts.flattenDiagnosticMessageText(errors[0].messageText, '\n') };
    } finally {
      this.set(file, text);
    }
  }

  // One mutant at a time: checked together, one can hide another's error (a function
  // emptied where the other's error would show; seen on core/shared/counters.ts).
  async check(mutants) {
    return Object.fromEntries(mutants.map((m) => [m.id, this.checkOne(m)]));
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Checker, 'hoshi-file-types', FileTypesChecker)];
