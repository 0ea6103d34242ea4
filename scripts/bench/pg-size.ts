// Whether a write on PostgreSQL costs what it changes (issue 34): single draws on a player
// holding ~25 kB (the write mix's) and on one holding ~768 kB (the bounds test's: 20,000
// ten-draws, docs/reliability.md), the CPU per draw of the service and of PostgreSQL for
// each, and the ratio of the large player's to the small one's (target ≤ 1.5 each side).
import type { Master } from '../../core/master/index.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import { DAY } from '../../core/time.js';
import { activePlayer, GACHA_ID } from './players.js';

/** The bounds test's player: this many ten-draws (docs/reliability.md, `npm run bench:player`). */
export const SEASONED_TEN_DRAWS = 20_000;

/** Gems and paid gems full: a run's single draws are paid for without a top-up between them. */
const funded = (m: Master, s: PlayerState): PlayerState => ({
  ...s,
  gem: m.game.currencyMax.gem,
  paidGem: m.game.currencyMax.paidGem,
});

/** The write mix's player (~25 kB), funded for the draws. */
export const smallPlayer = (m: Master, playerId: number, now: number): PlayerState =>
  funded(m, activePlayer(m, playerId, now).state);

/**
 * A player who has drawn for a year: `tenDraws` ten-draws through the reducer, a minute
 * apart, ending a day ago (~768 kB of canonical JSON at 20,000: 3,000 draw records, ~850
 * presents, ~140 items and characters). Takes seconds: the reducer runs each draw.
 */
export const seasonedPlayer = (
  m: Master,
  playerId: number,
  now: number,
  tenDraws = SEASONED_TEN_DRAWS,
): PlayerState => {
  const draw = operationByName('drawPlayerGacha');
  if (!draw) throw new Error('no operation drawPlayerGacha');
  let s = activePlayer(m, playerId, now, 0).state;
  const from = now - DAY - tenDraws * 60_000;
  for (let i = 0; i < tenDraws; i++) {
    const r = run(
      draw,
      funded(m, s),
      { gachaId: GACHA_ID, drawType: 3 },
      rngFromSeed(`seasoned-${playerId}-${i}`),
      from + i * 60_000,
      {
        master: m,
        others: [],
      },
    );
    if (r._tag === 'Left') throw new Error(`bench setup: a seasoned player's draw failed with ${r.left.code}`);
    s = r.right.state;
  }
  return { ...funded(m, s), version: 0 };
};

/** CPU per request (µs) of each side, as the bench's `measured` gives it. */
export interface SideCpu {
  readonly node: number;
  readonly postgres: number;
}

/** The large player's CPU per draw over the small one's, each side and both together. */
export const sizeRatios = (small: SideCpu, big: SideCpu): { node: number; postgres: number; both: number } => ({
  node: big.node / small.node,
  postgres: big.postgres / small.postgres,
  both: (big.node + big.postgres) / (small.node + small.postgres),
});
