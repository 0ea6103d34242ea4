// What a single draw builds on a large player (issue 34): its answer lists every
// character, yet builds the view of what changed only; the views of the characters
// it kept come from the answer before (views/never-mutated.ts, recentMemo). Counted
// in views built, not timed. Players' views are not kept here (the default).
import test from 'ava';
import { grantCharacters, freshPlayer, master, NOW, ok, withWealth } from '../../_support/core.js';
import { watchShared } from '../../../core/views/never-mutated.js';
import { fullView } from '../../../core/view.js';
import type { PlayerState } from '../../../core/state.js';

const isCharacterView = (v: object): boolean => 'managedCharacterId' in v && 'levelLimit' in v;

test.serial(
  'a single draw on a player of 120 characters builds the views of the characters it changed, not 120',
  (t) => {
    const ids = [...master().character.keys()].slice(0, 120);
    const s = withWealth(grantCharacters(freshPlayer(), ids, NOW), { gem: 100_000 });
    t.is(s.characters.length, 120);
    // A session starts with a full read: every character's view built once.
    ok(t, 'getAllPlayer', s, {});
    let built = 0;
    const unwatch = watchShared((v) => {
      if (isCharacterView(v)) built++;
    });
    t.teardown(unwatch);
    const first = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'a' });
    const second = ok(t, 'drawPlayerGacha', first.state, { gachaId: 2, drawType: 1 }, { seed: 'b' });
    // Again from the state the session read (a retried request).
    const again = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'c' });
    // A draw adds a character or changes one in place (a duplicate's limit break): those are new objects.
    const steps: ReadonlyArray<readonly [PlayerState, typeof first]> = [
      [s, first],
      [first.state, second],
      [s, again],
    ];
    const changed = steps.reduce(
      (n, [before, r]) => n + r.state.characters.filter((c) => !before.characters.includes(c)).length,
      0,
    );
    t.true(changed <= 3);
    t.is(built, changed, `built ${built} character views for ${changed} new or changed characters`);
    unwatch();
    // And the lists they answered are the ones built from scratch (a copy of the list: nothing of it kept).
    for (const r of [first, second, again]) {
      const copy = { ...r.state, characters: [...r.state.characters] };
      t.deepEqual(r.response.managedCharacters, fullView(copy, { master: master(), now: NOW }).managedCharacters);
    }
  },
);
