// Stryker ignorers for the mutation runs (stryker.config.mjs, docs/testing.md).
// Each names why its mutants are not worth a test of their own; Stryker reports
// them as Ignored, outside the score.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** Calls whose later string arguments name a codec: io-ts's `t.*` and the codecs module's obj/objWithOptional. */
const namesCodec = (callee) =>
  (callee.type === 'MemberExpression' && callee.object.type === 'Identifier' && callee.object.name === 't') ||
  (callee.type === 'Identifier' && (callee.name === 'obj' || callee.name === 'objWithOptional'));

/** The salt argument of `passwordHash(password, salt)` (core/secret.ts). */
const isSaltArgument = (path) =>
  path.parentPath?.isCallExpression() &&
  path.parent.arguments[1] === path.node &&
  path.parent.callee.type === 'Identifier' &&
  path.parent.callee.name === 'passwordHash';

/** A const declarator (`const X = …`) whose every use is a salt argument. */
const onlyASalt = (declarator) => {
  if (declarator.node.id.type !== 'Identifier') return false;
  const b = declarator.scope.getBinding(declarator.node.id.name);
  return b !== undefined && b.constant && b.referencePaths.length > 0 && b.referencePaths.every(isSaltArgument);
};

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'docs', {
    shouldIgnore(path) {
      // An operation's summary: prose for the OpenAPI document (its presence is linted by test/http/openapi.test.ts).
      if (
        (path.isStringLiteral() || path.isTemplateLiteral()) &&
        path.parentPath?.isObjectProperty() &&
        path.parent.value === path.node &&
        path.parent.key.type === 'Identifier' &&
        path.parent.key.name === 'summary'
      ) {
        return 'an operation summary is documentation prose';
      }
      // A codec's name (`t.type({...}, 'PresentView')`): the name of its schema in the OpenAPI document, not behaviour.
      if (
        path.isStringLiteral() &&
        /^[A-Z][A-Za-z0-9]*$/.test(path.node.value) &&
        path.parentPath?.isCallExpression() &&
        path.parent.arguments.indexOf(path.node) >= 1 &&
        namesCodec(path.parent.callee)
      ) {
        return 'a codec name names a schema in the OpenAPI document';
      }
      // A codec name handed to a helper that makes the codec (`TreeResponse('EquipPlayerAbilityResponse')`,
      // `IntEnum('FloorId', …)`): PascalCase with a lowercase letter, unlike an error code.
      if (
        path.isStringLiteral() &&
        /^[A-Z](?=[A-Za-z0-9]*[a-z])[A-Za-z0-9]*$/.test(path.node.value) &&
        path.parentPath?.isCallExpression() &&
        path.parent.arguments[0] === path.node &&
        path.parent.callee.type === 'Identifier' &&
        /^[A-Z]/.test(path.parent.callee.name)
      ) {
        return 'a codec name names a schema in the OpenAPI document';
      }
      // What each value of an IntEnum means: the OpenAPI document's description of it.
      if (
        path.isStringLiteral() &&
        path.parentPath?.isObjectProperty() &&
        path.parent.value === path.node &&
        path.parentPath.parentPath?.isObjectExpression() &&
        path.parentPath.parentPath.parentPath?.isCallExpression() &&
        path.parentPath.parentPath.parent.callee.type === 'Identifier' &&
        path.parentPath.parentPath.parent.callee.name === 'IntEnum'
      ) {
        return "an enum value's meaning is documentation prose";
      }
      return undefined;
    },
  }),
  // Equivalent mutants of a kind that recurs, recognised by their shape instead of a
  // `// Stryker disable` at each (docs/testing.md, section 2, lists them and why).
  declareValuePlugin(PluginKind.Ignore, 'equivalent', {
    shouldIgnore(path) {
      if (!path.isStringLiteral()) return undefined;
      // A literal salt: the salt of a move code that does not exist. A real code's salt is
      // random (createMoveCode), so a hash made with a literal one is refused, or thrown
      // away (made so that a miss takes as long as a refusal), whatever the literal is.
      // Given to passwordHash as it is, as the fallback of `??`, or through a const used only there.
      const parent = path.parentPath;
      const salt =
        isSaltArgument(path) ||
        (parent?.isLogicalExpression({ operator: '??' }) &&
          parent.node.right === path.node &&
          isSaltArgument(parent)) ||
        (parent?.isVariableDeclarator() && parent.node.init === path.node && onlyASalt(parent));
      return salt
        ? 'equivalent: a literal salt is the salt of a move code that does not exist, and its hash is refused or thrown away'
        : undefined;
    },
  }),
  // For a run of static mutants alone (npm run mutate -- --only-static): what runs only
  // when called (a function's body and parameters, a class's instance fields) is left
  // out before it is type-checked or run; a function itself, replaced while the module
  // loads, stays in, and so does the body of one called where it is written (an IIFE
  // building a table). A named function that module code calls while it loads is left
  // out here and is static to Stryker, so in neither this run nor an --ignore-static one.
  // The runner reports any runtime mutant left as not run.
  declareValuePlugin(PluginKind.Ignore, 'runtime-code', {
    shouldIgnore(path) {
      const parent = path.parentPath;
      const calledHere = parent?.parentPath?.isCallExpression() && parent.parent.callee === parent.node;
      if (parent?.isFunction() && !calledHere && (path.key === 'body' || path.listKey === 'params'))
        return 'runs when called: not a static mutant (--only-static)';
      if (path.isClassProperty() && !path.node.static)
        return 'runs when an instance is made: not a static mutant (--only-static)';
      return undefined;
    },
  }),
];
