// A player's data as a document (core/player-document.ts, docs/privacy.md): what an export
// writes reads back the same; a state of an older shape reads with the fields added since at
// their defaults (as a stored state does); a document of an older version is migrated by its
// migration (a synthetic version 0 here: version 1 is the first), one of a newer server or
// with no migration is refused naming `version`; every other refusal names its field. And the
// two operator entries the import runs: a new player from it, or the same player overwritten.
import test from 'ava';
import { freshPlayer, master, NOW } from '../../_support/core.js';
import {
  DOCUMENT_MIGRATIONS,
  documentOf,
  readDocument,
  type DocumentMigration,
} from '../../../core/player-document.js';
import { groupDefaults, type PlayerState } from '../../../core/state.js';
import { entryByName } from '../../../core/operations/table.js';
import { execute, type AnyOperation } from '../../../core/operation.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import { E } from '../../../core/shared/result.js';
import { tombstoneOf } from '../../../core/operations/privacy.js';

const s = (): PlayerState => ({ ...freshPlayer({ playerId: 7 }), name: 'Aki' });
const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));
const problem = (u: unknown, migrations?: Readonly<Record<number, DocumentMigration>>) => {
  const r = readDocument(u, migrations);
  return E.isLeft(r) ? r.left : undefined;
};

test('a document is the state with its format, version, time and game data; it reads back the same', (t) => {
  const doc = documentOf(s(), Date.UTC(2026, 0, 2, 3, 4, 5), 'abc');
  t.like(doc, {
    format: 'hoshi-player',
    version: 1,
    exportedAt: '2026-01-02T03:04:05Z',
    playerId: 7,
    masterVersion: 'abc',
  });
  const back = readDocument(json(doc));
  t.true(E.isRight(back));
  t.deepEqual(E.isRight(back) ? json(back.right) : undefined, json(doc));
  t.deepEqual(DOCUMENT_MIGRATIONS, {}, 'version 1 is the first: no migration yet');
});

test('a state of an older shape reads as a stored state does: the fields added since at their defaults, items from their old form', (t) => {
  const doc = json(documentOf(s(), NOW)) as { state: Record<string, unknown> };
  for (const k of Object.keys(groupDefaults)) delete doc.state[k];
  doc.state['items'] = { '5': 2, '3': 0 };
  const r = readDocument(doc);
  if (E.isLeft(r)) return t.fail(JSON.stringify(r.left));
  for (const k of Object.keys(groupDefaults))
    t.deepEqual(json(r.right.state[k as keyof PlayerState]), json(groupDefaults[k as keyof typeof groupDefaults]), k);
  t.deepEqual(r.right.state.items, [{ itemId: 5, amount: 2 }]);
});

test('an older version is migrated step by step; a newer one, or one no migration reads, is refused naming version', (t) => {
  // A synthetic version 0: the state under `player`, the time as a number.
  const v0 = { format: 'hoshi-player', version: 0, at: 1_700_000_000_000, player: json(s()) };
  const toV1: DocumentMigration = (d) => ({
    format: d['format'],
    version: 1,
    exportedAt: new Date(d['at'] as number).toISOString(),
    playerId: (d['player'] as { playerId: number }).playerId,
    state: d['player'],
  });
  const r = readDocument(v0, { 0: toV1 });
  t.true(E.isRight(r) && r.right.state.name === 'Aki' && r.right.version === 1);
  t.deepEqual(problem(v0), { field: 'version', reason: 'is 0: no migration from version 0 is known' });
  t.deepEqual(problem({ ...(json(documentOf(s(), NOW)) as object), version: 2 }), {
    field: 'version',
    reason: 'is 2: made by a newer server (this one reads versions up to 1)',
  });
  t.like(problem({ ...(json(documentOf(s(), NOW)) as object), version: 1.5 }), { field: 'version' });
});

test('every refusal names its field from the document: format, shape, the state field by field, its id, a tombstone', (t) => {
  const doc = json(documentOf(s(), NOW)) as Record<string, unknown> & { state: Record<string, unknown> };
  t.like(problem('x'), { field: '(document)' });
  t.like(problem({ ...doc, format: 'x' }), { field: 'format' });
  t.like(problem({ ...doc, exportedAt: 5 }), { field: 'exportedAt' });
  t.like(problem({ ...doc, playerId: 0 }), { field: 'playerId' });
  t.like(problem({ ...doc, state: undefined }), { field: 'state', reason: 'is missing' });
  t.like(problem({ ...doc, state: { ...doc.state, gold: 'lots' } }), { field: 'state.gold' });
  t.like(problem({ ...doc, state: { ...doc.state, account: { ...(doc.state['account'] as object), uuid: 1 } } }), {
    field: 'state.account.uuid',
  });
  t.like(problem({ ...doc, state: { ...doc.state, playerId: 8 } }), { field: 'state.playerId' });
  t.like(problem({ ...doc, state: { ...doc.state, version: -1 } }), { field: 'state.version' });
  t.like(problem({ ...doc, state: json(tombstoneOf(s(), NOW)) }), { field: 'state.account.deletedAt' });
});

const run = (name: string, state: PlayerState, request: unknown, token = 'c0ffee00-1234-4abc-8def-0123456789ab') =>
  execute(entryByName(name) as AnyOperation, state, request, rngFromSeed('import'), NOW, {
    master: master(),
    others: [],
    issued: { accessToken: token, accessTokenHash: tokenHash(token), sessionId: '' },
  });

test('adminImportPlayer: the state as a new player: its id, version 0, a new friend code and token, no relation or move code', (t) => {
  const src: PlayerState = {
    ...s(),
    friends: [{ playerId: 2, state: 'friend', since: NOW, name: 'Bo' }],
    move: { code: 'MOVE', passwordHash: 'h', salt: 's', deadline: NOW + 1, failures: 0 },
    account: { ...s().account, movedFrom: ['old-uuid'], sessionEpoch: 3 },
  };
  const unborn = { ...freshPlayer({ playerId: 9 }), version: -1 };
  const r = run('adminImportPlayer', unborn, { state: src, uuid: 'u-9' });
  if (E.isLeft(r)) return t.fail(JSON.stringify(r.left));
  const n = r.right.state;
  t.like(n, { playerId: 9, version: 0, name: 'Aki', move: null, friends: [] });
  t.not(n.myCode, src.myCode);
  t.deepEqual(n.account, {
    uuid: 'u-9',
    platform: src.account.platform,
    tokenHash: tokenHash('c0ffee00-1234-4abc-8def-0123456789ab'),
    movedFrom: [],
    sessionEpoch: 0,
  });
  t.deepEqual(n.characters, src.characters);
  t.deepEqual(r.right.response, { playerId: 9, uuid: 'u-9', accessToken: 'c0ffee00-1234-4abc-8def-0123456789ab' });
  const own = run('adminImportPlayer', unborn, { state: src });
  t.true(E.isRight(own) && own.right.state.account.uuid === src.account.uuid, "without a uuid: the document's");
});

test('adminRestorePlayer: the state over the same player; account, friend code, move code and relations kept, sessions void', (t) => {
  const now: PlayerState = {
    ...s(),
    version: 12,
    gem: 5,
    nextManagedId: s().nextManagedId + 40,
    friends: [{ playerId: 2, state: 'friend', since: NOW, name: 'Bo' }],
    account: { ...s().account, sessionEpoch: 2 },
  };
  const backup: PlayerState = { ...s(), version: 4, gem: 900, myCode: 'OLDCODE', friends: [] };
  const r = run('adminRestorePlayer', now, { state: backup });
  if (E.isLeft(r)) return t.fail(JSON.stringify(r.left));
  const n = r.right.state;
  t.like(n, {
    playerId: 7,
    version: 13,
    gem: 900,
    myCode: now.myCode,
    move: now.move,
    nextManagedId: now.nextManagedId,
  });
  t.deepEqual(n.friends, now.friends);
  t.deepEqual(n.account, { ...now.account, sessionEpoch: 3 });
  t.deepEqual(r.right.response, { playerId: 7, version: 13 });
});
