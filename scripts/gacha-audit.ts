// The gacha audit behind npm run audit:gacha (scripts/audit-gacha.ts). Every draw
// goes through the entry point the server uses (the draw operation, runNamed), each
// request with a fresh seed derived as the server derives it: an HMAC of the secret,
// the player and the state's version (adapters/service/seed.ts), the version rising
// by one per request as a player's does. It compares with what box/get publishes:
//   single     N single draws against the per-pull rates (rarityRates, pickups);
//   ten-draw   N ten-draws, per pull, against tenDraw's effective rates, and how often
//              the guarantee fired against tenDraw.guaranteeProbability;
//   guarantee  the guarantee's own table (the redrawn pull) against guarantee.rarities.
// Each rate with its two-sided 99.9% band.
import { deriveSeed } from '../adapters/service/seed.js';
import { createPlayer } from '../core/account.js';
import { drawOne, isOpen, rowsFrom, tableOf } from '../core/gacha/rates.js';
import type { GachaIndexed, Master } from '../core/master/index.js';
import { runNamed, type ResponseOf } from '../core/operations/table.js';
import { rngFromSeed } from '../core/rng.js';
import type { PlayerState } from '../core/state.js';
import { dayIndex, HOUR, weekdayOf } from '../core/time.js';

const Z999 = 3.2905; // two-sided 99.9% of the normal approximation

export type Section = 'single' | 'ten-draw' | 'guarantee';

export interface Line {
  readonly section: Section;
  readonly label: string;
  readonly published: number;
  readonly observed: number;
  /** Half-width of the 99.9% band around the published rate. */
  readonly band: number;
  readonly inside: boolean;
}

/** A binomial rate: count successes of n independent trials. */
export const line = (label: string, p: number, count: number, n: number, section: Section = 'single'): Line => {
  const band = Z999 * Math.sqrt((p * (1 - p)) / n);
  const observed = count / n;
  return { section, label, published: p, observed, band, inside: Math.abs(observed - p) <= band };
};

/**
 * A mean over n independent draws of a per-draw count divided by `size` (pulls in a
 * draw are not independent of each other: the guarantee ties the last to the rest),
 * with the band from the counts' own variance.
 */
export const meanLine = (label: string, p: number, sum: number, sumSq: number, n: number, size: number): Line => {
  const mean = sum / n;
  const variance = n > 1 ? Math.max(0, (sumSq - n * mean * mean) / (n - 1)) : 0;
  const band = (Z999 * Math.sqrt(variance / n)) / size;
  const observed = mean / size;
  return { section: 'ten-draw', label, published: p, observed, band, inside: Math.abs(observed - p) <= band + 1e-12 };
};

export const pct = (x: number, digits = 4) => `${(x * 100).toFixed(digits)}%`;

/** The seed the server uses for a player's request at a state version (service.ts: attempt 0). */
export const requestSeed = (secret: string, playerId: number, version: number): string =>
  deriveSeed(secret, playerId, version, 0);

/** The first hour, from the gacha's start (or `from`), when it is open; undefined if none within two weeks. */
export const openInstant = (m: Master, g: GachaIndexed, from = g.startsAt): number | undefined => {
  const day = (ms: number) => dayIndex(ms, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
  for (let at = Math.max(from, g.startsAt) + HOUR; at < Math.max(from, g.startsAt) + 15 * 24 * HOUR; at += HOUR) {
    if (isOpen(g, at, weekdayOf(day(at)))) return at;
  }
  return undefined;
};

export interface AuditOptions {
  /** Single draws. */
  readonly draws: number;
  /** Ten-draws. */
  readonly tenDraws: number;
  /** The seed secret (the server's SEED_SECRET). */
  readonly secret: string;
  readonly playerId?: number;
}

export interface GachaAudit {
  readonly gachaId: number;
  readonly name: string;
  /** When the draws ran (an hour the gacha is open). */
  readonly at: number;
  readonly lines: ReadonlyArray<Line>;
  /** Sections that could not run, and why (a gacha that refuses ten-draws, say). */
  readonly notes: ReadonlyArray<string>;
}

type Box = ResponseOf<'getPlayerGachaBox'>;

/** Audits one gacha through the draw operation; see the file's head. */
export const auditGacha = (m: Master, gachaId: number, opts: AuditOptions): GachaAudit => {
  const g = m.gacha.get(gachaId);
  if (!g) throw new Error(`no gacha ${gachaId} in the master data`);
  // Each gacha's audit player is its own (its id the gacha's), so gachas are drawn on different seeds.
  const playerId = opts.playerId ?? gachaId;
  const notes: string[] = [];
  const at = openInstant(m, g);
  if (at === undefined)
    return { gachaId, name: g.name, at: g.startsAt, lines: [], notes: ['never open in the two weeks after its start'] };
  const created = createPlayer(
    m,
    { playerId, uuid: 'audit', platform: 1, name: 'Audit', stepCode: 0, tokenHash: '' },
    rngFromSeed(deriveSeed(opts.secret, 'signup', playerId, 0)),
    at,
  );
  if (created._tag === 'Left') throw new Error(created.left.code);
  // Gems to the maximum, so every draw is paid; each request starts from this state at the next version.
  const base: PlayerState = { ...created.right, gem: m.game.currencyMax.gem, paidGem: m.game.currencyMax.paidGem };
  const env = { master: m, others: [] };
  const boxR = runNamed('getPlayerGachaBox', base, { gachaId }, rngFromSeed('box'), at, env);
  if (boxR._tag === 'Left') throw new Error(`box/get for gacha ${gachaId}: ${boxR.left.code}`);
  const box: Box = boxR.right.response;
  const rarityOf = (id: number) => m.character.get(id)?.rarity ?? 0;
  let version = base.version;
  const draw = (drawType: 1 | 3) => {
    const r = runNamed(
      'drawPlayerGacha',
      { ...base, version },
      { gachaId, drawType },
      rngFromSeed(requestSeed(opts.secret, playerId, version)),
      at,
      env,
    );
    version++;
    return r;
  };
  const lines: Line[] = [];

  // Single draws.
  const byRarity = new Map<number, number>();
  const byChar = new Map<number, number>();
  let singles = 0;
  for (let i = 0; i < opts.draws; i++) {
    const r = draw(1);
    if (r._tag === 'Left') {
      notes.push(`single draws refused: ${r.left.code}`);
      break;
    }
    for (const x of r.right.response.gachaResults) {
      byRarity.set(rarityOf(x.characterId), (byRarity.get(rarityOf(x.characterId)) ?? 0) + 1);
      byChar.set(x.characterId, (byChar.get(x.characterId) ?? 0) + 1);
    }
    singles++;
  }
  if (singles > 0) {
    lines.push(
      ...box.rarityRates.map((x) => line(`★${x.rarity}`, x.probability, byRarity.get(x.rarity) ?? 0, singles)),
    );
    lines.push(
      ...box.pickups.map((p) =>
        line(`pickup ${p.characterId}`, p.probability, byChar.get(p.characterId) ?? 0, singles),
      ),
    );
  }

  // Whole ten-draws: per-draw counts, so the band accounts for the pulls' dependence.
  const ten = box.tenDraw;
  const keys = [...ten.rarityRates.map((x) => `r${x.rarity}`), ...ten.pickups.map((p) => `c${p.characterId}`)];
  const sum = new Map(keys.map((k) => [k, 0]));
  const sumSq = new Map(keys.map((k) => [k, 0]));
  const min = g.guaranteeMinRarity;
  let tens = 0;
  let firstBelow = 0;
  let noneAtMin = 0;
  for (let i = 0; i < opts.tenDraws; i++) {
    const r = draw(3);
    if (r._tag === 'Left') {
      notes.push(`ten-draws refused: ${r.left.code}`);
      break;
    }
    const ids = r.right.response.gachaResults.map((x) => x.characterId);
    const counts = new Map<string, number>();
    for (const id of ids) {
      counts.set(`r${rarityOf(id)}`, (counts.get(`r${rarityOf(id)}`) ?? 0) + 1);
      counts.set(`c${id}`, (counts.get(`c${id}`) ?? 0) + 1);
    }
    for (const k of keys) {
      const c = counts.get(k) ?? 0;
      sum.set(k, (sum.get(k) ?? 0) + c);
      sumSq.set(k, (sumSq.get(k) ?? 0) + c * c);
    }
    if (min !== null) {
      if (ids.slice(0, -1).every((id) => rarityOf(id) < min)) firstBelow++;
      if (!ids.some((id) => rarityOf(id) >= min)) noneAtMin++;
    }
    tens++;
  }
  if (tens > 0) {
    const k = (key: string) => [sum.get(key) ?? 0, sumSq.get(key) ?? 0] as const;
    lines.push(
      ...ten.rarityRates.map((x) =>
        meanLine(`★${x.rarity} per pull`, x.probability, ...k(`r${x.rarity}`), tens, ten.draws),
      ),
    );
    lines.push(
      ...ten.pickups.map((p) =>
        meanLine(`pickup ${p.characterId} per pull`, p.probability, ...k(`c${p.characterId}`), tens, ten.draws),
      ),
    );
    if (min !== null) {
      // Whether the guarantee fired is not in the answer (a redrawn last pull looks like any
      // other): it fires when the first size−1 pulls fell below ★min (seen) and the last one
      // did too before its redraw (chance q, the single rate below ★min). So q × the share of
      // draws whose first pulls all fell below ★min estimates it, with that share's binomial band.
      const q = box.rarityRates.filter((x) => x.rarity < min).reduce((a, x) => a + x.probability, 0);
      const pFirst = q > 0 ? ten.guaranteeProbability / q : 0;
      const band = q * Z999 * Math.sqrt((pFirst * (1 - pFirst)) / tens);
      const observed = (q * firstBelow) / tens;
      lines.push({
        section: 'ten-draw',
        label: 'guarantee fired',
        published: ten.guaranteeProbability,
        observed,
        band,
        inside: Math.abs(observed - ten.guaranteeProbability) <= band + 1e-12,
      });
      lines.push({
        section: 'ten-draw',
        label: `draws without ★${min}+`,
        published: 0,
        observed: noneAtMin / tens,
        band: 0,
        inside: noneAtMin === 0,
      });
    }
  }

  // The guarantee's own table: the redrawn pull, drawn from its rows with a seed per pull.
  if (box.guarantee && opts.draws > 0) {
    const rows = rowsFrom(tableOf(m, g), box.guarantee.minRarity);
    const gRarity = new Map<number, number>();
    for (let i = 0; i < opts.draws; i++) {
      const r = rarityOf(drawOne(rngFromSeed(deriveSeed(opts.secret, 'guarantee', gachaId, i)), rows));
      gRarity.set(r, (gRarity.get(r) ?? 0) + 1);
    }
    lines.push(
      ...box.guarantee.rarities.map((x) =>
        line(`redrawn pull ★${x.rarity}`, x.probability, gRarity.get(x.rarity) ?? 0, opts.draws, 'guarantee'),
      ),
    );
  }
  return { gachaId, name: g.name, at, lines, notes };
};
