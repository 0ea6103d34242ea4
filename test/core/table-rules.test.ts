// The operations table (core/operations/table.ts): any entry found by its name, the
// operator's included, and nothing for a name not in it; who may call an entry follows
// from how it finds its player, its one discriminant.
import test from 'ava';
import { OPERATIONS, OPERATOR_OPERATIONS, entryByName, operationByName } from '../../core/operations/table.js';
import { accessOf } from '../../core/operation.js';

test('entryByName finds a game entry and an operator entry by name, and nothing for an unknown name', (t) => {
  t.is(entryByName('drawPlayerChest')?.name, 'drawPlayerChest');
  t.is(entryByName('adminSendPresent')?.name, 'adminSendPresent');
  t.is(
    entryByName('adminSendPresent'),
    OPERATOR_OPERATIONS.find((o) => o.name === 'adminSendPresent'),
  );
  t.is(entryByName('noSuchOperation'), undefined);
  t.is(entryByName(''), undefined);
  // The operator's entries are not served under /api: not among the game's operations.
  t.is(operationByName('adminSendPresent'), undefined);
});

test('who may call an entry is derived from how it finds its player', (t) => {
  const accessOfName = (name: string) => accessOf(entryByName(name)!);
  t.is(accessOfName('drawPlayerGacha'), 'session', "found by the caller's session (the default)");
  t.is(accessOfName('signupPlayer'), 'account', 'a new player');
  t.is(accessOfName('loginPlayer'), 'account', 'by uuid');
  t.is(accessOfName('setPlayerMove'), 'account', 'by move code');
  t.is(accessOfName('getAppVersion'), 'public', 'no player');
  t.is(accessOfName('getAllQuestChapter'), 'public', 'no player');
  t.is(accessOfName('adminSendPresent'), 'operator', 'by the player id the operator names');
  const publics = OPERATIONS.filter((o) => accessOf(o) === 'public')
    .map((o) => o.name)
    .sort();
  t.deepEqual(
    publics,
    ['getAllNotice', 'getAllQuestChapter', 'getAppVersion'],
    'only the pre-log-in reads need no session: the version check, the chapters and the notices',
  );
});
