// The gachas: each one's period and prices, and one gacha's published rates (single
// pulls and whole ten-draws) beside the rates its draws gave in the players' kept histories,
// each observed rate with its 95% interval and, in words, whether the published one is inside it.
import { api } from './api.js';
import { facts, h, table } from './dom.js';
import { bars } from './charts.js';
import { int, percent } from './format.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const gems = (n) => (n === null ? '—' : `${int(n)} gems`);
const period = (g) => `${g.start} – ${g.end ?? 'no end'}`;

/** A rate as a designer reads it: 8.3%, 3%, 0.52% (two significant digits below 1%). */
const rate = (p) => `${Number((p * 100).toFixed(p < 0.01 ? 2 : 1))}%`;
const range = (o) => `${rate(o.low)}–${rate(o.high)}`;
/** The published rate inside the observed share's 95% interval: the draws agree with it. */
const consistent = (published, o) => published >= o.low && published <= o.high;
const against = (published, o) =>
  consistent(published, o)
    ? `consistent with the published ${rate(published)}`
    : `outside the interval: the published ${rate(published)} is ${published < o.low ? 'below' : 'above'} it`;
/** One observed rate in words, with its interval and the pulls it is over. */
const reading = (published, o, pulls) =>
  pulls === 0
    ? `no pulls counted; published ${rate(published)}`
    : `observed ${rate(o.share)} (95% interval ${range(o)}) over ${int(pulls)} pulls; ${against(published, o)}`;

export const gachasScreen = async () => {
  const { gachas } = await api('GET', '/admin/gachas');
  return {
    node: h(
      'div',
      {},
      h('h1', {}, 'Gachas'),
      table(
        `${gachas.length} gachas (times in the game's time zone)`,
        [
          'Id',
          'Gacha',
          'Kind',
          'Period',
          'Days',
          'Open now',
          'Single',
          'Ten-draw',
          'First ten-draw',
          'Paid single',
          'Ticket',
        ],
        gachas.map((g) => [
          g.gachaId,
          h('a', { href: `#/gacha/${g.gachaId}` }, g.name),
          g.kind,
          period(g),
          g.weekdays ? g.weekdays.map((d) => DAYS[d]).join(' ') : 'every day',
          h('span', { class: g.openNow ? 'ok' : 'note' }, g.openNow ? 'open' : 'closed'),
          gems(g.cost.singleGem),
          gems(g.cost.tenGem),
          gems(g.cost.firstTenGem),
          gems(g.cost.paidSingleGem),
          g.cost.ticketItemId === null ? '—' : `item ${g.cost.ticketItemId} × ${g.cost.ticketAmount}`,
        ]),
        { numeric: [0] },
      ),
    ),
  };
};

/** Published and observed per rarity, as rows and as a paired chart. */
const rarityComparison = (caption, published, observed) => {
  const byRarity = new Map(observed.rarities.map((r) => [r.rarity, r]));
  const rows = published.map((p) => {
    const o = byRarity.get(p.rarity);
    return {
      rarity: p.rarity,
      published: p.probability,
      pulls: o?.pulls ?? 0,
      observed: { share: o?.share ?? 0, low: o?.low ?? 0, high: o?.high ?? 1 },
    };
  });
  return h(
    'div',
    {},
    table(
      caption,
      ['Rarity', 'Published', 'Observed', 'Pulls', '95% interval', 'Against the published'],
      rows.map((r) => [
        `★${r.rarity}`,
        percent(r.published),
        observed.pulls ? percent(r.observed.share) : '—',
        int(r.pulls),
        observed.pulls ? range(r.observed) : '—',
        observed.pulls
          ? h(
              'span',
              { class: consistent(r.published, r.observed) ? 'ok' : 'warn' },
              consistent(r.published, r.observed) ? 'consistent' : 'outside the interval',
            )
          : '—',
      ]),
      { numeric: [1, 2, 3, 4, 5] },
    ),
    h(
      'ul',
      { class: 'readings' },
      rows.map((r) => h('li', {}, `★${r.rarity}: ${reading(r.published, r.observed, observed.pulls)}.`)),
    ),
    h(
      'div',
      { class: 'legend' },
      h('span', {}, h('span', { class: 'swatch a' }), 'published'),
      h('span', {}, h('span', { class: 'swatch b' }), 'observed'),
    ),
    bars(
      `${caption}: published and observed share of each rarity`,
      rows.map((r) => ({ label: `★${r.rarity}`, a: r.published, b: r.observed.share })),
      { format: (x) => percent(x, 1), paired: true },
    ),
  );
};

export const gachaScreen = async (ctx, gachaId) => {
  const { gacha: g, published: p, observed: o } = await api('GET', `/admin/gachas/${gachaId}`);
  const single = new Map(o.single.characters.map((c) => [c.characterId, c]));
  const ten = new Map(o.tenDraw.characters.map((c) => [c.characterId, c]));
  const tenPickups = new Map(p.tenDraw.pickups.map((c) => [c.characterId, c.probability]));
  const observedCell = (c) => (c ? `${percent(c.share)} (${int(c.pulls)}; 95% ${range(c)})` : '—');
  /** A pickup's observed cell, with whether its published rate is inside the interval. */
  const pickupCell = (c, published) =>
    c ? `${observedCell(c)}, ${consistent(published, c) ? 'consistent' : 'outside the interval'}` : '—';
  return {
    node: h(
      'div',
      {},
      h('h1', {}, `${g.name} (gacha ${g.gachaId})`),
      h(
        'section',
        { class: 'panel', 'aria-label': 'Period and prices' },
        facts([
          ['Kind', g.kind],
          ['Period', period(g)],
          ['Open now', g.openNow ? 'yes' : 'no'],
          ['Days', g.weekdays ? g.weekdays.map((d) => DAYS[d]).join(' ') : 'every day'],
          ['Single draw', gems(g.cost.singleGem)],
          ['Ten-draw', `${gems(g.cost.tenGem)} for ${g.tenDrawSize} pulls`],
          ['First ten-draw', gems(g.cost.firstTenGem)],
          ['Paid single draw', gems(g.cost.paidSingleGem)],
          ['Ticket', g.cost.ticketItemId === null ? 'none' : `item ${g.cost.ticketItemId} × ${g.cost.ticketAmount}`],
          ['Pool', `${g.poolSize} characters`],
          ['Re-draw gacha', g.reDraw ? 'yes' : 'no'],
          [
            'Guarantee',
            p.guarantee
              ? `in a ten-draw with no pull at ★${p.guarantee.minRarity} or above, the last pull is redrawn at ★${p.guarantee.minRarity}+ (${percent(p.tenDraw.guaranteeProbability)} of ten-draws)`
              : 'none',
          ],
        ]),
      ),
      h(
        'p',
        { class: 'note' },
        `Observed: the draws kept in ${int(o.players)} players' histories; ${int(o.single.draws)} single draws (${int(o.single.pulls)} pulls) and ${int(o.tenDraw.draws)} ten-draws (${int(o.tenDraw.pulls)} pulls). Fixes are not counted; re-draws are.`,
      ),
      h(
        'p',
        { class: 'note' },
        "Each observed rate comes with its 95% interval (Wilson score): the rates the draws are consistent with. Over a few dozen pulls it is wide, and a difference inside it is not a finding. A published rate outside its interval is worth a look, not yet proof: at 95% one rate in twenty falls outside by chance, and this page shows several (for six rarity rows, at least one about a quarter of the time). A ten-draw's guarantee ties its pulls together, which the interval ignores.",
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'single-h' },
        h('h2', { id: 'single-h' }, 'Single pulls'),
        rarityComparison('Rarities per single pull', p.rarityRates, o.single),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'ten-h' },
        h('h2', { id: 'ten-h' }, 'Whole ten-draws'),
        rarityComparison('Rarities per pull of a ten-draw (the guarantee included)', p.tenDraw.rarityRates, o.tenDraw),
      ),
      h(
        'section',
        { class: 'panel', 'aria-labelledby': 'chars-h' },
        h('h2', { id: 'chars-h' }, 'Characters'),
        table(
          'Pickups per pull',
          ['Character', 'Rarity', 'Published (single)', 'Published (ten-draw)', 'Observed single', 'Observed ten-draw'],
          p.characters
            .filter((c) => c.pickup)
            .map((c) => [
              `${c.name} (${c.characterId})`,
              `★${c.rarity}`,
              percent(c.probability, 3),
              tenPickups.has(c.characterId) ? percent(tenPickups.get(c.characterId), 3) : '—',
              pickupCell(single.get(c.characterId), c.probability),
              tenPickups.has(c.characterId)
                ? pickupCell(ten.get(c.characterId), tenPickups.get(c.characterId))
                : observedCell(ten.get(c.characterId)),
            ]),
          { numeric: [2, 3, 4, 5], empty: 'this gacha has no pickup.' },
        ),
        h(
          'details',
          {},
          h('summary', {}, `Each of the ${p.characters.length} characters`),
          table(
            'Each character per pull',
            ['Character', 'Rarity', 'Pickup', 'Published (single)', 'Observed single', 'Observed ten-draw'],
            p.characters.map((c) => [
              `${c.name} (${c.characterId})`,
              `★${c.rarity}`,
              c.pickup ? 'pickup' : '',
              percent(c.probability, 3),
              observedCell(single.get(c.characterId)),
              observedCell(ten.get(c.characterId)),
            ]),
            { numeric: [3, 4, 5] },
          ),
        ),
      ),
    ),
  };
};
