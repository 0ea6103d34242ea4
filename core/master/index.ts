// Master data: every file's codec, validation with file-and-field messages,
// cross-references, and the indexes built once at start-up.
import type * as t from 'io-ts';
import { baseFiles } from './base.js';
import { indexProgression, progressionFiles } from './progression.js';
import { indexTown, townFiles } from './town.js';
import { indexSocial, socialFiles } from './social.js';
import { indexOriginal, originalFiles } from './original.js';
import { checkLoginBonus, loginBonusFiles } from './loginBonus.js';
import type { MasterFilesOf, MasterProblem } from './types.js';
import { parseTime } from '../time.js';
import { pathOf } from '../codecs.js';
import type { Grant } from './common.js';
import { drawTable, type GachaIndexed } from '../gacha/table.js';
import { buildBox } from '../gacha/box.js';
import type { Master } from './model.js';
import { fillMasterDefaults } from './defaults.js';

export const masterFiles = {
  ...baseFiles,
  ...progressionFiles,
  ...townFiles,
  ...socialFiles,
  ...originalFiles,
  ...loginBonusFiles,
};
export type MasterFileName = keyof typeof masterFiles;
export type MasterFiles = MasterFilesOf;
export type { MasterProblem };
export type { Master, GachaIndexed };

const indexBy = <T, K extends keyof T>(
  rows: ReadonlyArray<T>,
  key: K,
  file: string,
  problems: MasterProblem[],
): Map<number, T> => {
  const m = new Map<number, T>();
  rows.forEach((r, i) => {
    const id = r[key] as unknown as number;
    if (m.has(id)) problems.push({ file, field: `${i}.${String(key)}`, message: `duplicate id ${id}` });
    m.set(id, r);
  });
  return m;
};

/** Checks that a grant names something that exists. */
export const grantTargetExists = (
  m: Pick<Master, 'character' | 'item' | 'weapon' | 'facility' | 'roomObject'>,
  g: Grant,
): boolean => {
  switch (g.kind) {
    case 'character':
      return m.character.has(g.objectId);
    case 'item':
      return m.item.has(g.objectId);
    case 'weapon':
      return m.weapon.has(g.objectId);
    case 'townFacility':
      return m.facility.has(g.objectId);
    case 'roomObject':
      return m.roomObject.has(g.objectId);
    default:
      return g.objectId === 0;
  }
};

/**
 * Validates raw file contents (file name → parsed JSON) and builds the indexed
 * master data, or lists every problem with its file and field. Files of an older
 * shape load: what later versions added and they lack gets its default first
 * (core/master/defaults.ts).
 */
export const buildMaster = (
  read: Readonly<Record<string, unknown>>,
): { ok: true; master: Master } | { ok: false; problems: MasterProblem[] } => {
  const raw = fillMasterDefaults(read).files;
  const problems: MasterProblem[] = [];
  const files: Partial<Record<MasterFileName, unknown>> = {};
  for (const name of Object.keys(masterFiles) as MasterFileName[]) {
    const file = `${name}.json`;
    if (!(name in raw)) {
      problems.push({ file, field: '(file)', message: 'file is missing' });
      continue;
    }
    const codec = masterFiles[name] as t.Type<unknown>;
    const r = codec.decode(raw[name]);
    if (r._tag === 'Left') {
      for (const e of r.left.slice(0, 10)) {
        problems.push({
          file,
          field: pathOf(e, '(file)'),
          message:
            e.message ??
            `expected ${e.context[e.context.length - 1]?.type.name}, got ${JSON.stringify(e.value)?.slice(0, 60)}`,
        });
      }
    } else files[name] = r.right;
  }
  if (problems.length > 0) return { ok: false, problems };
  const f = files as MasterFiles;
  const offset = f.game.timezoneOffsetMinutes;

  const character = indexBy(f.characters, 'characterId', 'characters.json', problems);
  const item = indexBy(f.items, 'itemId', 'items.json', problems);
  const rarity = indexBy(f.rarities, 'rarity', 'rarities.json', problems);
  const weapon = indexBy(f.weapons, 'weaponId', 'weapons.json', problems);
  const facility = indexBy(f.facilities, 'facilityId', 'facilities.json', problems);
  const roomObject = indexBy(f.roomObjects, 'roomObjectId', 'roomObjects.json', problems);
  const titleIds = new Set(f.titles.map((x) => x.titleId));
  const classIds = new Set(f.classes.map((x) => x.classId));
  const elementIds = new Set(f.elements.map((x) => x.elementId));

  f.characters.forEach((c, i) => {
    const at = (field: string, message: string) =>
      problems.push({ file: 'characters.json', field: `${i}.${field}`, message });
    if (!titleIds.has(c.titleId)) at('titleId', `unknown title ${c.titleId}`);
    if (!classIds.has(c.classId)) at('classId', `unknown class ${c.classId}`);
    if (!elementIds.has(c.elementId)) at('elementId', `unknown element ${c.elementId}`);
    if (!rarity.has(c.rarity)) at('rarity', `unknown rarity ${c.rarity}`);
    if (item.get(c.limitBreakItemId)?.category !== 'limitBreak')
      at('limitBreakItemId', `item ${c.limitBreakItemId} is not a limit-break item`);
  });
  f.playerLevels.forEach((l, i) => {
    if (l.level !== i + 1)
      problems.push({
        file: 'playerLevels.json',
        field: `${i}.level`,
        message: `levels must run 1, 2, 3…; expected ${i + 1}`,
      });
    const prev = f.playerLevels[i - 1];
    if (prev && l.totalExp <= prev.totalExp)
      problems.push({ file: 'playerLevels.json', field: `${i}.totalExp`, message: 'must grow with the level' });
  });

  const gacha = new Map<number, GachaIndexed>();
  f.gachas.forEach((g, i) => {
    const at = (field: string, message: string) =>
      problems.push({ file: 'gachas.json', field: `${i}.${field}`, message });
    if (gacha.has(g.gachaId)) at('gachaId', `duplicate id ${g.gachaId}`);
    const startsAt = parseTime(g.period.start, offset);
    const endsAt = g.period.end === null ? null : parseTime(g.period.end, offset);
    if (startsAt === undefined) at('period.start', 'not a valid time');
    if (endsAt === undefined) at('period.end', 'not a valid time');
    const rarities = new Set(g.rates.map((r) => r.rarity));
    g.rates.forEach((r, j) => {
      if (!g.pool.some((id) => character.get(id)?.rarity === r.rarity))
        at(`rates.${j}.rarity`, `no character of rarity ${r.rarity} in the pool`);
    });
    g.pool.forEach((id, j) => {
      const c = character.get(id);
      if (!c) at(`pool.${j}`, `unknown character ${id}`);
      else if (!rarities.has(c.rarity)) at(`pool.${j}`, `character ${id} has rarity ${c.rarity}, which has no rate`);
    });
    if (new Set(g.pool).size !== g.pool.length) at('pool', 'lists a character twice');
    const shareByRarity = new Map<number, number>();
    g.pickups.forEach((p, j) => {
      const c = character.get(p.characterId);
      if (!c || !g.pool.includes(p.characterId))
        at(`pickups.${j}.characterId`, `pickup ${p.characterId} is not in the pool`);
      else shareByRarity.set(c.rarity, (shareByRarity.get(c.rarity) ?? 0) + p.shareBp);
    });
    for (const [r, s] of shareByRarity)
      if (s > 10000) at('pickups', `pickup shares of rarity ${r} exceed 10000 basis points`);
    g.targets.forEach((x, j) => {
      if (!character.has(x.characterId)) at(`targets.${j}.characterId`, `unknown character ${x.characterId}`);
    });
    if (g.guaranteeMinRarity !== null && !g.rates.some((r) => r.rarity >= (g.guaranteeMinRarity ?? 0)))
      at('guaranteeMinRarity', 'no rate at or above it');
    if (g.weekdays && g.weekdays.some((d) => !Number.isInteger(d) || d < 0 || d > 6))
      at('weekdays', 'days are 0 (Sunday) to 6');
    const ticket = g.cost.ticketItemId;
    if (ticket !== null && !item.has(ticket)) at('cost.ticketItemId', `unknown item ${ticket}`);
    gacha.set(g.gachaId, { ...g, startsAt: startsAt ?? 0, endsAt: endsAt ?? null });
  });

  const lookups = { character, item, weapon, facility, roomObject };
  f.welcome.forEach((w, i) => {
    if (!grantTargetExists(lookups, w.grant))
      problems.push({
        file: 'welcome.json',
        field: `${i}.grant.objectId`,
        message: `no ${w.grant.kind} ${w.grant.objectId}`,
      });
  });
  f.weapons.forEach((w, i) => {
    if (!classIds.has(w.classId))
      problems.push({ file: 'weapons.json', field: `${i}.classId`, message: `unknown class ${w.classId}` });
    if (w.characterId !== null && !character.has(w.characterId))
      problems.push({ file: 'weapons.json', field: `${i}.characterId`, message: `unknown character ${w.characterId}` });
  });
  const game = f.game;
  if (game.move.passwordMinLength > game.move.passwordMaxLength)
    problems.push({ file: 'game.json', field: 'move.passwordMinLength', message: 'greater than passwordMaxLength' });
  if (!f.playerLevels.some((l) => l.level === game.player.startLevel))
    problems.push({ file: 'game.json', field: 'player.startLevel', message: 'not in playerLevels.json' });

  const groups = {
    ...indexProgression(f, problems),
    ...indexTown(f, problems),
    ...indexSocial(f, problems),
    ...indexOriginal(f, problems),
  };
  checkLoginBonus(f, problems);
  if (problems.length > 0) return { ok: false, problems };
  const gachaTables = new Map(
    [...gacha.values()].map((g) => {
      const table = drawTable({ character }, g);
      return [g.gachaId, { gacha: g, table, box: buildBox({ character, game: f.game }, g, table) }] as const;
    }),
  );
  const contentRoomsInOrder = [...groups.contentRoom.values()].sort((a, b) => a.contentRoomId - b.contentRoomId);
  return {
    ok: true,
    master: {
      ...f,
      ...groups,
      character,
      item,
      rarity,
      gacha,
      weapon,
      facility,
      roomObject,
      titleIds,
      gachaTables,
      contentRoomsInOrder,
    },
  };
};
