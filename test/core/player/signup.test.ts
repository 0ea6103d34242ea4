// Sign-up (core/account.ts and signupPlayer, docs/rules/foundation.md, Player and accounts):
// the name trimmed or the default, the master data's starting state, the welcome presents,
// the stepCode; the device uuid checked; the token the edge issued handed out and kept only
// as a hash.
import test, { type ExecutionContext } from 'ava';
import { master, NOW, fails, ok } from '../../_support/core.js';
import { createPlayer, MANAGED_ID_SPAN, unbornPlayer, type NewPlayer } from '../../../core/account.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import { DAY } from '../../../core/time.js';
import { operationNamed } from '../../../core/operations/table.js';
import type { GameError } from '../../../core/errors.js';
import { signup, created, TOKEN, issued, run, right, UUID } from './_account.js';

const m = master();
const DEVICE = '6f9619ff-8b86-4d11-b42d-00c04fc964ff';

const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('a sign-up trims the name; a blank one is the default name; nameMaxLength counts code points', (t) => {
  const g = master().game.player;
  t.is(created({ name: '  Aki  ' }).name, 'Aki');
  t.is(created({ name: '   ' }).name, g.defaultName);
  const emoji = '🌟'.repeat(g.nameMaxLength);
  t.is(created({ name: emoji }).name, emoji, 'each emoji is one character');
  const long = signup({ name: `${emoji}x` });
  t.is(long._tag, 'Left');
  if (long._tag === 'Left')
    t.like(long.left, {
      code: 'INVALID_PARAMETERS',
      field: 'name',
      reason: `must be at most ${g.nameMaxLength} characters`,
    });
});

test("a new player starts at the master data's level, wealth and stamina, with its uuid, platform and the token as a hash", (t) => {
  const m = master();
  const g = m.game.player;
  const level = m.playerLevels.find((l) => l.level === g.startLevel)!;
  const s = created();
  t.like(s, {
    version: 0,
    playerId: 7,
    name: 'Aki',
    createdAt: NOW,
    lastLoginAt: NOW,
    level: g.startLevel,
    exp: level.totalExp,
    gold: g.startGold,
    gem: g.startGem,
    paidGem: g.startPaidGem,
    kirara: g.startKirara,
    stamina: { value: level.staminaMax, at: NOW },
    account: { uuid: UUID, platform: 2, tokenHash: tokenHash('token-of-aki-00001'), movedFrom: [], sessionEpoch: 0 },
  });
  t.false(JSON.stringify(s).includes('token-of-aki-00001'), 'the token itself is not kept');
  t.deepEqual(
    created({ accessToken: undefined, tokenHash: tokenHash('token-of-aki-00001') } as Partial<NewPlayer>),
    s,
    'a replay gives the hash: the same player',
  );
  t.regex(s.myCode, /^[A-Z0-9]{10}$/);
  t.true(
    s.presents.every((p) => Math.floor(p.managedPresentId / MANAGED_ID_SPAN) === 7),
    "managed ids come from the player's own range",
  );
  t.is(s.nextManagedId, 7 * MANAGED_ID_SPAN + 1 + s.presents.length);
  t.is(unbornPlayer(7).version, -1, 'the unborn player is one version before the first');
});

test("a new player starts at the master data's start level, with that level's exp and stamina", (t) => {
  const m = master();
  const tuned = { ...m, game: { ...m.game, player: { ...m.game.player, startLevel: 2 } } };
  const level2 = m.playerLevels.find((l) => l.level === 2)!;
  t.not(level2.totalExp, m.playerLevels[0]!.totalExp);
  const r = createPlayer(
    tuned,
    { playerId: 7, uuid: UUID, platform: 1, name: '', stepCode: 0, accessToken: 'token-of-aki-00001' },
    rngFromSeed('signup'),
    NOW,
  );
  t.like(r._tag === 'Right' ? r.right : undefined, {
    level: 2,
    exp: level2.totalExp,
    stamina: { value: level2.staminaMax, at: NOW },
  });
});

test('the welcome presents arrive at sign-up, each with its title, message and deadline (none when the master data gives none)', (t) => {
  const m = master();
  const s = created();
  t.is(s.presents.length, m.welcome.length);
  m.welcome.forEach((w, i) => {
    const p = s.presents[i]!;
    t.like(p, {
      title: w.title,
      message: w.message,
      source: 'welcome',
      kind: w.grant.kind,
      objectId: w.grant.objectId,
      amount: w.grant.amount,
    });
    t.is(p.deadline, w.deadlineDays ? NOW + w.deadlineDays * DAY : null);
  });
  t.true(
    m.welcome.some((w) => w.deadlineDays) && m.welcome.some((w) => !w.deadlineDays),
    'the fixtures have presents of both kinds',
  );
});

test("a sign-up's stepCode above 0 is recorded, 0 or below records nothing; a step out of range refuses the sign-up", (t) => {
  t.is(created({ stepCode: 0 }).tutorial.step, 0);
  t.is(
    created({ stepCode: master().game.tutorial.finishedStep }).tutorial.step,
    0,
    'a sign-up cannot finish the tutorial',
  );
  t.is(created({ stepCode: 2 }).tutorial.step, 2);
  const bad = signup({ stepCode: master().game.tutorial.lastStep + 1 });
  t.is(bad._tag === 'Left' ? bad.left.code : 'ok', 'INVALID_PARAMETERS');
});

test("a sign-up without a name takes the master data's default name", (t) => {
  const r = ok(t, 'signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 2 });
  t.is(r.state.name, m.game.player.defaultName);
  t.like(r.state, { playerId: 7, version: 0, account: { uuid: DEVICE, platform: 2 } });
});

test('a uuid that is not a UUID is 102 naming uuid', (t) => {
  for (const uuid of ['not-a-uuid', `${DEVICE}0`, DEVICE.replace(/-/g, '')]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'signupPlayer', unbornPlayer(7), { uuid, platform: 1 });
    t.is(fieldOf(e), 'uuid', uuid);
    t.regex(reasonOf(e), /UUID/, uuid);
  }
});

test("the uuid codec's guard takes exactly what its decoder takes: a UUID string, never another value that prints as one", (t) => {
  const req = operationNamed('signupPlayer').request;
  const cases: ReadonlyArray<readonly [unknown, boolean]> = [
    [DEVICE, true],
    [DEVICE.toUpperCase(), true],
    ['not-a-uuid', false],
    [[DEVICE], false],
    [{ toString: () => DEVICE }, false],
    [null, false],
  ];
  for (const [uuid, valid] of cases) {
    const q = { uuid, platform: 1 };
    t.is(req.is(q), valid, `guard: ${String(uuid)}`);
    t.is(req.decode(q)._tag, valid ? 'Right' : 'Left', `decoder: ${String(uuid)}`);
  }
});

test('a sign-up hands out the token the edge issued and keeps only its hash; with none issued (a library caller) it hands out none and keeps none', (t) => {
  const r = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }, issued()));
  t.deepEqual(r.response, { playerId: 7, accessToken: TOKEN });
  t.is(r.state.account.tokenHash, tokenHash(TOKEN));
  t.false(JSON.stringify(r.state).includes(TOKEN), 'the token itself is not kept');
  t.is(
    right(t, run('loginPlayer', r.state, { uuid: DEVICE, accessToken: TOKEN })).response.playerId,
    7,
    'the token handed out logs in',
  );

  const bare = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }));
  t.deepEqual(bare.response, { playerId: 7, accessToken: '' });
  t.is(bare.state.account.tokenHash, '', 'no hash of a token nobody was given');
  t.is(run('loginPlayer', bare.state, { uuid: DEVICE, accessToken: TOKEN })._tag, 'Left');
});

test('sign-up refuses a name of only white space (as name/set does); an empty or absent name is the default name', (t) => {
  for (const name of ['   ', '\u3000', ' \t ']) {
    const r = run('signupPlayer', unbornPlayer(7), { uuid: UUID, platform: 1, name }, issued());
    t.is(r._tag, 'Left', JSON.stringify(name));
    if (r._tag === 'Left') {
      t.is(r.left.code, 'INVALID_PARAMETERS');
      t.is(fieldOf(r.left), 'name');
      t.regex(reasonOf(r.left), /only white space/);
    }
  }
  for (const request of [
    { uuid: UUID, platform: 1, name: '' },
    { uuid: UUID, platform: 1 },
  ]) {
    const r = right(t, run('signupPlayer', unbornPlayer(7), request, issued()));
    t.is(r.state.name, m.game.player.defaultName);
  }
});
