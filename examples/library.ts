// The core as a library: master data, a new player and a few operations run
// with a chosen rng and `now`, with no HTTP and no storage. Run: npm run example
//
// Every operation is one entry of the table (core/operations/table.ts); `run`
// decodes a raw request with the entry's io-ts codec (a bad one is 102
// INVALID_PARAMETERS) and runs its reducer. The same state, request, seed and
// now always give the same result, byte for byte.
import { loadMaster } from '../adapters/master/load.js';
import { createPlayer } from '../core/account.js';
import type { GameError } from '../core/errors.js';
import { run, type Executed } from '../core/operation.js';
import { operationNamed, runNamed, type OperationName, type ResponseOf } from '../core/operations/table.js';
import { rngFromSeed } from '../core/rng.js';
import { itemCount } from '../core/shared/player.js';
import type { PlayerState } from '../core/state.js';
import { HOUR } from '../core/time.js';
import { cliArgs } from '../scripts/args.js';

cliArgs({
  command: 'npm run example --',
  summary:
    'The core as a library: loads master data, creates a player and runs a few operations with a chosen rng and now, with no HTTP and no storage; prints what each did.',
  options: {},
});

const master = loadMaster(); // the bundled fixtures/; loadMaster(dir) reads another directory
let now = Date.UTC(2026, 10, 21, 3, 0, 0);

/**
 * Runs one operation by its table name; throws on a game error (a script's choice, not the core's).
 * The answer is typed by the operation's response codec: no casts to read it.
 */
const perform = <N extends OperationName>(
  state: PlayerState,
  name: N,
  request: unknown,
  seed: string,
): Executed<ResponseOf<N>> => {
  const r = runNamed(name, state, request, rngFromSeed(seed), now, { master, others: [] });
  if (r._tag === 'Left') {
    const e: GameError = r.left;
    throw new Error(`${name} failed: ${JSON.stringify(e)}`);
  }
  return r.right;
};

const created = createPlayer(
  master,
  {
    playerId: 1,
    uuid: '00000000-0000-4000-8000-000000000001',
    platform: 1,
    name: 'Sim',
    stepCode: 0,
    accessToken: 'library-example',
  },
  rngFromSeed('signup'),
  now,
);
if (created._tag === 'Left') throw new Error(created.left.code);
let s = created.right;
console.log(`player ${s.playerId} "${s.name}": ${s.gem} gems, ${s.presents.length} welcome presents`);

// Receive the welcome presents (the request is what the HTTP query would carry).
const ids = s.presents.map((p) => p.managedPresentId).join(',');
const received = perform(s, 'getPlayerPresent', { managedPresentId: ids, stepCode: 0 }, 'presents');
s = received.state;
console.log(`received ${received.response.receivedPresents.length} presents: ${s.gem} gems, ${s.gold} gold`);

// A ten-draw; its response lists the characters drawn.
const beforeDraw = s;
const r = perform(s, 'drawPlayerGacha', { gachaId: 3, drawType: 3, stepCode: 0, reDraw: false }, 'draw-1');
s = r.state;
const drawn = r.response.gachaResults.map((x) => x.characterId);
const rarity = (id: number) => master.character.get(id)?.rarity ?? 0;
console.log(`ten-draw: ${drawn.map((id) => `${id}(★${rarity(id)})`).join(' ')}; ${s.gem} gems left`);

// The same inputs give the same output: the draw again from the same state and seed.
const again = perform(beforeDraw, 'drawPlayerGacha', { gachaId: 3, drawType: 3, stepCode: 0, reDraw: false }, 'draw-1');
console.log(
  `the same draw again is byte-identical: ${JSON.stringify(again) === JSON.stringify(r)}; the input state is untouched: ${beforeDraw.gem === 3000}`,
);
// A game rule broken is a value, not an exception: here a request the codec refuses.
const refused = run(operationNamed('drawPlayerGacha'), s, { gachaId: 'three' }, rngFromSeed('x'), now, {
  master,
  others: [],
});
console.log(`a bad request answers ${refused._tag === 'Left' ? refused.left.code : 'ok'}`);

// Buy and open a facility, start its level-up, and come back when it is done.
const bought = perform(s, 'buyAllPlayerTownFacility', { facilities: [{ facilityId: 1, amount: 1 }] }, 'buy');
s = bought.state;
const facility = bought.response.managedTownFacilityIds[0] as number;
s = perform(s, 'openUpPlayerTownFacility', { managedTownFacilityId: facility }, 'open').state;
s = perform(s, 'levelUpPlayerTownFacility', { managedTownFacilityId: facility }, 'level').state;
now += 3 * HOUR; // time is only ever an argument
const collected = perform(
  s,
  'itemUpPlayerTownFacility',
  { managedTownFacilityId: facility, itemNo: 0, amount: 24_000, actionTime: now },
  'collect',
);
s = collected.state;
console.log(
  `three hours later the facility is level ${s.facilities.find((f) => f.managedTownFacilityId === facility)?.level}; collected ${collected.response.amount}: ${s.gold} gold`,
);

// State is plain JSON: keep it, send it, compare it.
console.log(
  `version ${s.version}; ${s.characters.length} characters; item 3001 ×${itemCount(s, 3001)}; ${JSON.stringify(s).length} bytes of JSON`,
);
