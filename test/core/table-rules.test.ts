// The operations table (core/operations/table.ts): any entry found by its name, the
// operator's included, and nothing for a name not in it; an entry counts as implemented
// when it has a reducer or a global answer, and not when it has neither.
import test from 'ava';
import { OPERATIONS, OPERATOR_OPERATIONS, entryByName, isImplemented, operationByName } from '../../core/operations/table.js';

test('entryByName finds a game entry and an operator entry by name, and nothing for an unknown name', (t) => {
  t.is(entryByName('drawPlayerChest')?.name, 'drawPlayerChest');
  t.is(entryByName('adminSendPresent')?.name, 'adminSendPresent');
  t.is(entryByName('adminSendPresent'), OPERATOR_OPERATIONS.find((o) => o.name === 'adminSendPresent'));
  t.is(entryByName('noSuchOperation'), undefined);
  t.is(entryByName(''), undefined);
  // The operator's entries are not served under /api: not among the game's operations.
  t.is(operationByName('adminSendPresent'), undefined);
});

test('an entry is implemented with a reducer or a global answer, not with neither', (t) => {
  const session = OPERATIONS.find((o) => o.name === 'drawPlayerGacha')!;
  const global = OPERATIONS.find((o) => o.reduce === null && o.global !== undefined)!;
  t.true(isImplemented(session));
  t.true(isImplemented(global), global.name);
  t.false(isImplemented({ ...session, reduce: null }), 'an entry declared, its rules not built yet');
  const { global: _answer, ...noGlobal } = global;
  t.false(isImplemented(noGlobal));
});
