// The gachas: each one's period and prices, and one gacha's published rates (single
// pulls and whole ten-draws) beside the rates its draws gave in the players' kept histories.
import { api } from './api.js';
import { facts, h, table } from './dom.js';
import { bars } from './charts.js';
import { int, percent } from './format.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const gems = (n) => (n === null ? '—' : `${int(n)} gems`);
const period = (g) => `${g.start} – ${g.end ?? 'no end'}`;

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
    return { rarity: p.rarity, published: p.probability, pulls: o?.pulls ?? 0, observed: o?.share ?? 0 };
  });
  return h(
    'div',
    {},
    table(
      caption,
      ['Rarity', 'Published', 'Observed', 'Pulls', 'Difference'],
      rows.map((r) => [
        `★${r.rarity}`,
        percent(r.published),
        observed.pulls ? percent(r.observed) : '—',
        int(r.pulls),
        observed.pulls
          ? `${r.observed >= r.published ? '+' : ''}${((r.observed - r.published) * 100).toFixed(2)} points`
          : '—',
      ]),
      { numeric: [1, 2, 3, 4] },
    ),
    h(
      'div',
      { class: 'legend' },
      h('span', {}, h('span', { class: 'swatch a' }), 'published'),
      h('span', {}, h('span', { class: 'swatch b' }), 'observed'),
    ),
    bars(
      `${caption}: published and observed share of each rarity`,
      rows.map((r) => ({ label: `★${r.rarity}`, a: r.published, b: r.observed })),
      { format: (x) => percent(x, 1), paired: true },
    ),
  );
};

export const gachaScreen = async (ctx, gachaId) => {
  const { gacha: g, published: p, observed: o } = await api('GET', `/admin/gachas/${gachaId}`);
  const single = new Map(o.single.characters.map((c) => [c.characterId, c]));
  const ten = new Map(o.tenDraw.characters.map((c) => [c.characterId, c]));
  const tenPickups = new Map(p.tenDraw.pickups.map((c) => [c.characterId, c.probability]));
  const observedCell = (c) => (c ? `${percent(c.share)} (${int(c.pulls)})` : '—');
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
              observedCell(single.get(c.characterId)),
              observedCell(ten.get(c.characterId)),
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
