// The first-time re-draw gacha (docs/rules/foundation.md, Gacha; issue 33): every draw is
// owned at once and listed in managedCharacters; the result stays replaceable until the
// player moves on; each further draw of the gacha (reDraw true, or the clients' repeat of
// the reDraw false draw) takes back the last result's characters and grants a new one,
// free, outside the limits, never beside the first. A fix, the tutorial's next step or any
// other change to the player makes it final and closes the gacha; a closed gacha is 309.
// Results held before issue 33 are granted by their fix. What a re-roll takes back: kept.test.ts.
import test from 'ava';
import { fails, freshPlayer, ok, receiveAll, withWealth, master, NOW } from '../../_support/core.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { PlayerState } from '../../../core/state.js';

const m = master();
const TUTORIAL_DRAW = { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false };
const RE_ROLL = { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true };

/** A player at the tutorial's gacha: presents received, the first adv seen (step 3), gems to spare. */
const atTheGacha = (t: Parameters<typeof receiveAll>[0]): PlayerState => {
  const s = withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
  return ok(t, 'addPlayerTutorialStep', s, { stepCode: 3 }).state;
};

const idsOf = (r: { gachaResults: ReadonlyArray<{ characterId: number }> }) => r.gachaResults.map((x) => x.characterId);
const distinct = (ids: ReadonlyArray<number>) => [...new Set(ids)];
const ownedIds = (s: PlayerState) => s.characters.map((c) => c.characterId);

test('the tutorial draw (reDraw false) is owned at once, listed in managedCharacters, and stays replaceable', (t) => {
  const s = atTheGacha(t);
  const r = ok(t, 'drawPlayerGacha', s, TUTORIAL_DRAW);
  const drawn = distinct(idsOf(r.response));
  t.deepEqual(ownedIds(r.state), drawn, 'owned at once');
  t.deepEqual(
    r.response.managedCharacters.map((c) => c.characterId),
    drawn,
    'and read from managedCharacters, as the clients do',
  );
  t.like(r.response, { pending: false, replaceable: true });
  t.is(r.state.tutorial.step, 4);
  const st = statOf(r.state, 1);
  t.like(st, { closed: false, totalDraws: 10 });
  t.deepEqual(st.pending?.characterIds, idsOf(r.response));
  t.is(r.state.counters['gachaDraws'], 10);
  t.like(r.state.gachaHistory.at(-1), { gachaId: 1, drawType: 3, granted: true });
  // reDraw absent is reDraw false.
  t.true(ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3 }).response.replaceable);
});

test("KiraraBot's re-rolls: each reDraw true takes back the last result's characters and grants a new one, free, outside the limits", (t) => {
  const first = ok(t, 'drawPlayerGacha', atTheGacha(t), TUTORIAL_DRAW);
  let cur = first.state;
  for (let i = 0; i < 20; i++) {
    const r = ok(t, 'drawPlayerGacha', cur, RE_ROLL, { seed: `re${i}` });
    const drawn = distinct(idsOf(r.response));
    t.is(r.response.gachaResults.length, 10);
    t.deepEqual(ownedIds(r.state), drawn, `re-roll ${i}: only the new result is owned`);
    t.deepEqual(
      r.response.managedCharacters.map((c) => c.characterId),
      drawn,
    );
    t.like(r.response, { pending: false, replaceable: true });
    // New as against what the player owns without the result it replaced.
    t.true(r.response.gachaResults.every((x, j) => x.isNew === !idsOf(r.response).slice(0, j).includes(x.characterId)));
    cur = r.state;
  }
  t.is(cur.gem, first.state.gem, 're-rolls are free');
  t.like(statOf(cur, 1), { totalDraws: 10, points: 0, closed: false }, 'only the first draw counts toward the limit');
  t.is(cur.counters['gachaDraws'], 10, 'and as draws');
  t.is(cur.tutorial.step, 4);
  t.deepEqual(statOf(cur, 1).pending?.characterIds, cur.gachaHistory.at(-1)?.characterIds);
  t.true(cur.nextManagedId > first.state.nextManagedId, 'managed ids are never reused');
  const kinds = ok(t, 'getHistoryPlayerGacha', cur, { gachaId: 1, pageSize: 100 }).response.draws.map((d) => d.kind);
  t.deepEqual(kinds, [...Array<string>(20).fill('reDraw'), 'ten']);
  for (const d of ok(t, 'getHistoryPlayerGacha', cur, { gachaId: 1 }).response.draws)
    t.like(d, { granted: true, paid: { ticket: 0, gem: 0, paidGem: 0 } });
  // get_all still offers the gacha, with the result a re-draw replaces; it counts one ten-draw.
  const entry = ok(t, 'getAllPlayerGacha', cur, {}).response.gachas.find((g) => g.gacha.id === 1);
  t.like(entry, { closed: false, gem10Total: 1, gem10Daily: 1, totalDraws: 10 });
  t.deepEqual(entry?.pending, statOf(cur, 1).pending?.characterIds);
});

test("libkirara's repeat of the same reDraw false draw re-rolls: never a second result beside the first", (t) => {
  // kirara_redraw.py: one reDraw true draw (stepCode 0), then the tutorial's draw again and again.
  let cur = ok(t, 'drawPlayerGacha', atTheGacha(t), RE_ROLL).state;
  t.is(cur.tutorial.step, 3, 'stepCode 0 records nothing');
  t.is(cur.characters.length, distinct(statOf(cur, 1).pending!.characterIds).length, 'a first reDraw true is a draw');
  for (let i = 0; i < 10; i++) {
    const r = ok(t, 'drawPlayerGacha', cur, TUTORIAL_DRAW, { seed: `lib${i}` });
    t.deepEqual(ownedIds(r.state), distinct(idsOf(r.response)), `repeat ${i}: the last result only`);
    t.true(r.state.characters.length <= 10);
    cur = r.state;
  }
  t.is(cur.tutorial.step, 4);
  t.like(statOf(cur, 1), { totalDraws: 10 });
  t.is(cur.counters['gachaDraws'], 10);
});

test("moving on makes the result final: the tutorial's party set closes the gacha; a re-roll then is 309 and changes nothing", (t) => {
  const drawn = ok(t, 'drawPlayerGacha', atTheGacha(t), TUTORIAL_DRAW).state;
  const rolled = ok(t, 'drawPlayerGacha', drawn, RE_ROLL, { seed: 'once' }).state;
  const set = ok(t, 'setPlayerTutorialParty', rolled, { stepCode: 5 }).state;
  t.like(statOf(set, 1), { closed: true, pending: null });
  t.deepEqual(ownedIds(set), ownedIds(rolled), 'the last result is kept');
  t.like(set.gachaHistory.at(-1), { gachaId: 1, drawType: 0, granted: false });
  t.deepEqual(set.gachaHistory.at(-1)?.characterIds, statOf(rolled, 1).pending?.characterIds);
  t.is(ok(t, 'getHistoryPlayerGacha', set, { gachaId: 1 }).response.draws[0]?.kind, 'fix');
  for (const req of [RE_ROLL, TUTORIAL_DRAW, { gachaId: 1, drawType: 1 }])
    t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', set, req), {
      gachaId: 1,
      reason: 'its result is final (fixed, or the player moved on)',
    });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', set, {});
  t.false(
    ok(t, 'getAllPlayerGacha', set, {}).response.gachas.some((g) => g.gacha.id === 1),
    'it leaves the open list',
  );
});

test('any other change to the player moves on too (a tip, another gacha, a step); a read or a refusal does not', (t) => {
  const drawn = ok(t, 'drawPlayerGacha', atTheGacha(t), TUTORIAL_DRAW).state;
  const others: Array<[string, Record<string, unknown>]> = [
    ['addPlayerTutorialTip', { tipId: 1 }],
    ['drawPlayerGacha', { gachaId: 2, drawType: 1 }],
    ['addPlayerTutorialStep', { stepCode: 5 }],
  ];
  for (const [name, req] of others) {
    const after = ok(t, name as 'addPlayerTutorialTip', drawn, req).state;
    t.like(statOf(after, 1), { closed: true, pending: null }, name);
    fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', after, RE_ROLL);
  }
  // A read, a refused request and a repeated step change nothing: the result stays replaceable.
  let cur = ok(t, 'getAllPlayerGacha', drawn, {}).state;
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', cur, { stepCode: 2 });
  cur = ok(t, 'addPlayerTutorialStep', cur, { stepCode: 4 }).state;
  t.is(cur, drawn);
  t.true(ok(t, 'drawPlayerGacha', cur, RE_ROLL).response.replaceable);
});

test("another player's operation that changes the player ends it too (a friend request received)", (t) => {
  const drawn = ok(t, 'drawPlayerGacha', atTheGacha(t), TUTORIAL_DRAW).state;
  const other = freshPlayer({ playerId: 2 });
  const r = ok(t, 'proposePlayerFriend', other, { playerId: drawn.playerId }, { others: [drawn] });
  const after = r.others[0] as PlayerState;
  t.like(statOf(after, 1), { closed: true, pending: null });
  t.like(after.gachaHistory.at(-1), { drawType: 0, granted: false });
  t.deepEqual(after.characters, drawn.characters);
});

test('fix makes the kept result final: nothing more granted, the gacha closed, a record that grants nothing', (t) => {
  const drawn = ok(t, 'drawPlayerGacha', atTheGacha(t), TUTORIAL_DRAW);
  const f = ok(t, 'fixPlayerGacha', drawn.state, {});
  t.deepEqual(f.state.characters, drawn.state.characters);
  t.deepEqual(f.state.items, drawn.state.items);
  t.like(statOf(f.state, 1), { closed: true, pending: null, totalDraws: 10 });
  t.like(f.state.gachaHistory.at(-1), { drawType: 0, characterIds: idsOf(drawn.response), granted: false });
  t.is(f.response.gachaId, 1);
  t.deepEqual(f.response.gachaResults, drawn.response.gachaResults, 'new or not as at the draw');
  t.deepEqual(
    f.response.managedCharacters.map((c) => c.characterId),
    ownedIds(drawn.state),
  );
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', f.state, RE_ROLL);
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', f.state, {});
});

test('a result held before issue 33 (nothing granted): fix grants it; a re-roll takes nothing back and grants a new one', (t) => {
  const s = atTheGacha(t);
  const held = { characterIds: [1013, 1014, 1013], drawnAt: NOW - 1000 };
  const old: PlayerState = { ...s, gachaStats: [{ ...statOf(s, 1), totalDraws: 3, pending: held }] };
  const f = ok(t, 'fixPlayerGacha', old, { gachaId: 1 });
  t.deepEqual(ownedIds(f.state), [1013, 1014]);
  t.like(f.state.gachaHistory.at(-1), { drawType: 0, characterIds: [1013, 1014, 1013], granted: true });
  t.like(statOf(f.state, 1), { closed: true, pending: null });
  t.true(f.response.gachaResults[0]!.isNew);
  const r = ok(t, 'drawPlayerGacha', old, RE_ROLL);
  t.is(r.response.gachaResults.length, 3, 'as many as the held result');
  t.deepEqual(ownedIds(r.state), distinct(idsOf(r.response)));
  t.like(statOf(r.state, 1), { totalDraws: 3, closed: false });
  t.is(statOf(r.state, 1).pending?.kept?.rolls, 1);
  // The hook leaves a held result alone: only its fix grants it.
  const moved = ok(t, 'addPlayerTutorialTip', old, { tipId: 1 }).state;
  t.deepEqual(statOf(moved, 1).pending, held);
});

test('re-draw on a normal gacha is 102; a first draw of the re-draw gacha pays its price and counts its limits', (t) => {
  const s = atTheGacha(t);
  t.like(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 3, reDraw: true }), {
    field: 'reDraw',
  });
  // Gacha 1 allows 10 characters in all: a first single draw leaves room, the re-rolls do not use it.
  let cur = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 1, reDraw: true }).state;
  t.like(statOf(cur, 1), { totalDraws: 1 });
  for (let i = 0; i < 12; i++) cur = ok(t, 'drawPlayerGacha', cur, RE_ROLL, { seed: `s${i}` }).state;
  t.like(statOf(cur, 1), { totalDraws: 1 });
  t.is(statOf(cur, 1).pending?.characterIds.length, 1, 'a re-roll draws as many as the result it replaces');
  t.is(cur.gem, s.gem - m.gacha.get(1)!.cost.singleGem);
});

test('fix: an unknown gacha is 107; a gacha with nothing pending is 315', (t) => {
  const s = atTheGacha(t);
  t.like(fails(t, 'NOT_FOUND', 'fixPlayerGacha', s, { gachaId: 999 }), { entity: 'gacha', id: 999 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', s, { gachaId: 2 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', s, {});
  const drawn = ok(t, 'drawPlayerGacha', s, TUTORIAL_DRAW).state;
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', drawn, { gachaId: 2 });
});

test('fix without a gachaId fixes the gacha that holds a result, not the first one drawn', (t) => {
  // A second re-draw gacha (gacha 1's twin, id 7) in a copy of the master data.
  const g1 = m.gacha.get(1)!;
  const twin = { ...g1, gachaId: 7 };
  const m2 = {
    ...m,
    gacha: new Map([...m.gacha, [7, twin]]),
    gachas: [...m.gachas, { ...m.gachas.find((x) => x.gachaId === 1)!, gachaId: 7 }],
  };
  const s = freshPlayer();
  const closed = { ...statOf(s, 1), totalDraws: 10, closed: true };
  const pending = { ...statOf(s, 7), totalDraws: 1, pending: { characterIds: [1013], drawnAt: NOW } };
  const r = ok(t, 'fixPlayerGacha', { ...s, gachaStats: [closed, pending] }, {}, { m: m2 });
  t.is(r.response.gachaId, 7);
  t.deepEqual(ownedIds(r.state), [1013]);
});
