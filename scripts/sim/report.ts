// The simulation's readable summary (the JSON is the whole result).
import { CURRENCIES, type SimResult } from '../../toolkit/sim/engine.js';

const n = (x: number): string => x.toLocaleString('en-US', { maximumFractionDigits: 1 });
const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

export const summary = (r: SimResult): string => {
  const out: string[] = [];
  const line = (s = '') => out.push(s);
  line(
    `hoshi simulation: seed ${r.params.seed}, ${n(r.params.players)} players × ${r.params.days} days (${n(r.playerDays)} player-days) from ${r.params.start}`,
  );
  line();
  line(
    'Profiles (per player)      players  days played   gems in  on draws  other  saved   draws  ★5 owned  quests  stamina  level',
  );
  for (const p of r.profiles) {
    line(
      `  ${p.name.padEnd(24)} ${String(p.players).padStart(7)} ${n(p.playDaysPerPlayer).padStart(12)} ${n(p.gemsEarnedPerPlayer).padStart(9)} ${n(p.gemsOnDrawsPerPlayer).padStart(9)} ${n(p.gemsOtherPerPlayer).padStart(6)} ${n(p.gemsSavedPerPlayer).padStart(6)} ${n(p.drawsPerPlayer).padStart(7)} ${n(p.fiveStarsPerPlayer).padStart(9)} ${n(p.questsPerPlayer).padStart(7)} ${n(p.staminaUsedPerPlayer).padStart(8)} ${n(p.playerLevel).padStart(6)}`,
    );
  }
  line();
  line('Currency flows (population totals; presents carry gifts, purchases and welcome sets)');
  for (const c of CURRENCIES) {
    const f = r.currency[c];
    const ins =
      Object.entries(f.sources)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(', ') || '—';
    const outs =
      Object.entries(f.sinks)
        .map(([k, v]) => `${k} ${n(v)}`)
        .join(', ') || '—';
    line(`  ${c.padEnd(8)} in: ${ins}`);
    line(`  ${''.padEnd(8)} out: ${outs}`);
    line(`  ${''.padEnd(8)} held at the end: ${n(f.heldAtEnd)} (${n(f.heldPerPlayer)} a player)`);
  }
  line();
  const d = r.draws;
  line(
    `Draws: ${n(d.total)} — ${Object.keys(d.byRarity)
      .sort()
      .reverse()
      .map((k) => `★${k} ${n(d.byRarity[k] ?? 0)} (${pct(d.observedRate[k] ?? 0)})`)
      .join(', ')}`,
  );
  const f5 = r.fiveStarsOwned;
  line(
    `★5 owned per player: mean ${n(f5.mean)}, median ${f5.median}, 90th percentile ${f5.p90}, most ${f5.max}; players by count: ${f5.histogram.map((c, i) => `${i}:${c}`).join(' ')}`,
  );
  const p = r.drawsToPickup;
  line(
    `Draws to the pickup ${p.characterId ?? '(per profile)'}: ${p.players} players drew on its gacha; ${p.byDraw} drew it, ${p.byPoints} took it for points, ${p.notYet} not yet; draws needed: mean ${n(p.draws.mean)}, median ${p.draws.median}, 90th percentile ${p.draws.p90}, most ${p.draws.max}`,
  );
  line(
    `Stamina: ${n(r.stamina.used)} used (${n(r.stamina.perPlayerDay)} a player-day) on ${n(r.stamina.questsCleared)} quests cleared`,
  );
  line(`Friends per player at the end: ${n(r.friendsPerPlayer)}`);
  line();
  line('Operations: ok (failed by code)');
  for (const [name, c] of Object.entries(r.operations)) {
    const failed = Object.entries(c.failed)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    line(`  ${name.padEnd(36)} ${String(c.ok).padStart(9)}${failed ? `  (${failed})` : ''}`);
  }
  return `${out.join('\n')}\n`;
};
