// storage:check's look at the replay log (issue 36): every kept segment (oplog/, then
// oplog.jsonl) read line by line in chunks (a segment may be a legacy oplog.jsonl of
// gigabytes), its entries counted with their first and last seq, and the archive's
// files counted. Problems: a line that does not parse (a torn tail of oplog.jsonl is
// torn: the next start cuts it; in a sealed segment, written whole, it is damage), a
// seq that does not follow the one before (within or across segments), a segment not
// named for its first entry, and entries neither kept nor archived between the
// archive and the kept log. It changes nothing.
import { open, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { listArchives } from './oplog-archive.js';
import { LIVE_FILE, listSegments } from './oplog-segments.js';
import type { StoredLogEntry } from './replay-log.js';

export interface LogFileReport {
  readonly file: string;
  readonly bytes: number;
  readonly entries: number;
  readonly firstSeq?: number;
  readonly lastSeq?: number;
}

export interface ReplayLogReport {
  /** The kept segments, oldest first, the live oplog.jsonl last. */
  readonly files: ReadonlyArray<LogFileReport>;
  readonly archives: { readonly files: number; readonly bytes: number; readonly lastSeq?: number };
}

export interface LogProblem {
  readonly file: string;
  readonly reason: string;
  readonly torn?: boolean;
}

const CHUNK = 1024 * 1024;

/** One file's whole lines, in chunks; stops at the first line that does not parse. */
const scan = async (
  path: string,
  visit: (e: StoredLogEntry) => void,
): Promise<{ bytes: number; bad?: { offset: number; torn: boolean } }> => {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    let pos = 0;
    let carry = Buffer.alloc(0);
    while (pos < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - pos));
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const buf = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
      const base = pos - buf.length;
      let at = 0;
      for (let nl = buf.indexOf(0x0a, at); nl >= 0; nl = buf.indexOf(0x0a, at)) {
        const line = buf.subarray(at, nl).toString('utf8');
        if (line.trim() !== '') {
          try {
            visit(JSON.parse(line) as StoredLogEntry);
          } catch {
            return { bytes: size, bad: { offset: base + at, torn: false } };
          }
        }
        at = nl + 1;
      }
      carry = buf.subarray(at);
    }
    // Bytes after the last line feed: a line cut short.
    return carry.length > 0 ? { bytes: size, bad: { offset: size - carry.length, torn: true } } : { bytes: size };
  } finally {
    await fh.close();
  }
};

/** The replay log's report and problems; undefined when the directory has no replay log at all. */
export const checkReplayLog = async (
  dir: string,
): Promise<{ report: ReplayLogReport; problems: LogProblem[] } | undefined> => {
  const segments = await listSegments(dir);
  const archives = await listArchives(dir);
  const livePath = join(dir, LIVE_FILE);
  const hasLive = await stat(livePath).then(
    () => true,
    () => false,
  );
  if (!hasLive && segments.length === 0 && archives.length === 0) return undefined;
  const problems: LogProblem[] = [];
  const files: LogFileReport[] = [];
  let prev: number | undefined;
  for (const f of [
    ...segments.map((s) => ({ path: s.path, first: s.first as number | undefined })),
    ...(hasLive ? [{ path: livePath, first: undefined }] : []),
  ]) {
    let entries = 0;
    let firstSeq: number | undefined;
    let lastSeq: number | undefined;
    const r = await scan(f.path, (e) => {
      entries++;
      if (e.seq === undefined) return;
      if (prev !== undefined && e.seq !== prev + 1)
        problems.push({
          file: f.path,
          reason: `entry ${e.seq} follows entry ${prev} (entries missing, or out of order)`,
        });
      firstSeq ??= e.seq;
      lastSeq = e.seq;
      prev = e.seq;
    });
    if (f.first !== undefined && firstSeq !== undefined && firstSeq !== f.first)
      problems.push({ file: f.path, reason: `it is named for entry ${f.first} but starts at entry ${firstSeq}` });
    if (r.bad !== undefined) {
      const live = f.path === livePath;
      const torn = live && r.bad.torn;
      problems.push({
        file: f.path,
        reason: torn
          ? `a torn last line at byte ${r.bad.offset} (a write a crash cut short; the next start cuts it off)`
          : `the line at byte ${r.bad.offset} ${r.bad.torn ? 'is cut short (a sealed segment was written whole)' : 'does not parse'}; the lines after it are not read`,
        ...(torn ? { torn } : {}),
      });
    }
    files.push({
      file: f.path,
      bytes: r.bytes,
      entries,
      ...(firstSeq === undefined ? {} : { firstSeq }),
      ...(lastSeq === undefined ? {} : { lastSeq }),
    });
  }
  let bytes = 0;
  for (const a of archives) bytes += (await stat(a.path)).size;
  const lastArchived = archives.reduce<number | undefined>(
    (m, a) => (m === undefined || a.last > m ? a.last : m),
    undefined,
  );
  const keptFrom = files.find((f) => f.firstSeq !== undefined)?.firstSeq;
  if (lastArchived !== undefined && keptFrom !== undefined && keptFrom > lastArchived + 1) {
    problems.push({
      file: join(dir, 'oplog-archive'),
      reason: `entries ${lastArchived + 1} to ${keptFrom - 1} are neither archived nor kept`,
    });
  }
  return {
    report: {
      files,
      archives: { files: archives.length, bytes, ...(lastArchived === undefined ? {} : { lastSeq: lastArchived }) },
    },
    problems,
  };
};

/** The report's lines as storage:check prints them. */
export const formatReplayLog = (r: ReplayLogReport): string[] => [
  ...r.files.map(
    (f) =>
      `  ${f.file.endsWith(LIVE_FILE) ? LIVE_FILE : `oplog/${basename(f.file)}`}: ${f.bytes} bytes, ${f.entries} entries${f.firstSeq === undefined ? '' : ` (seq ${f.firstSeq} to ${f.lastSeq})`}`,
  ),
  `  oplog-archive: ${r.archives.files} archived segment${r.archives.files === 1 ? '' : 's'}, ${r.archives.bytes} bytes${r.archives.lastSeq === undefined ? '' : ` (to seq ${r.archives.lastSeq})`}`,
];
