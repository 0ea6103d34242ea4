// The descriptions of core/operations/gacha.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { objWithOptional, IdList, obj, PosInt, IntRange } from '../codecs.js';
import {
  PlayerGachaView,
  GachaStepView,
  BoxPickup,
  BoxTarget,
  RarityRate,
  NamedRate,
  Guarantee,
  TenDraw,
  HistoryEntry,
} from '../views/gacha.js';
import { nullable } from '../views/codecs.js';
import { LocalTime } from '../master/common.js';
import { draw, fix } from './gacha-draw.js';

export const num = t.number;
export const str = t.string;
export const bool = t.boolean;

// ---- history ----
export const HISTORY_PAGE_MAX = 100;

// ---- get_all ----
export const getAll = describeOp({
  name: 'getAllPlayerGacha',
  method: 'GET',
  path: '/player/gacha/get_all',
  group: 'gacha',
  readOnly: true,
  summary:
    "Lists the gachas open now (or those named by gachaIds) with the player's draws and points, in the original's shape.",
  request: objWithOptional({}, { gachaIds: IdList(100) }, 'GetAllPlayerGachaRequest'),
  response: t.type(
    {
      gachas: t.array(PlayerGachaView),
      /** Steps of step-up gachas: hoshi has none, so always empty (kept for the original's shape). */
      gachaSteps: t.array(GachaStepView),
    },
    'GetAllPlayerGachaResponse',
  ),
  errors: ['NOT_FOUND'],
});

// ---- box/get ----
export const box = describeOp({
  name: 'getPlayerGachaBox',
  method: 'GET',
  path: '/player/gacha/box/get',
  group: 'gacha',
  readOnly: true,
  summary:
    "Pickup and target characters of a gacha and the exact probability of every character per pull, and a whole ten-draw's effective rates with its guarantee, from the tables the draw uses.",
  request: obj({ gachaId: PosInt }, 'GetPlayerGachaBoxRequest'),
  response: t.type(
    {
      gachaId: num,
      name: str,
      /** The player's gacha points of this gacha. */
      points: num,
      pickups: t.array(BoxPickup),
      targets: t.array(BoxTarget),
      /** Exact probability of each rarity, and of each character, per pull. */
      rarityRates: t.array(RarityRate),
      characters: t.array(NamedRate),
      /** null when the gacha has no ten-draw guarantee. */
      guarantee: nullable(Guarantee),
      /** A whole ten-draw's effective per-pull rates and how often its guarantee fires. */
      tenDraw: TenDraw,
    },
    'GetPlayerGachaBoxResponse',
  ),
  errors: ['NOT_FOUND'],
});

// ---- point_to_character ----
export const pointToCharacter = describeOp({
  name: 'pointToCharacterPlayerGacha',
  method: 'POST',
  path: '/player/gacha/point_to_character',
  group: 'gacha',
  summary: 'Spends gacha points for a chosen target character of the gacha.',
  request: obj({ gachaId: PosInt, characterId: PosInt }, 'PointToCharacterPlayerGachaRequest'),
  response: t.type(
    {
      gachaId: num,
      characterId: num,
      /** The gacha points left. */
      points: num,
      /** False when the character was owned (it became its limit-break items). */
      isNew: bool,
    },
    'PointToCharacterPlayerGachaResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'GACHA_POINT_IS_SHORT'],
});

export const history = describeOp({
  name: 'getHistoryPlayerGacha',
  method: 'GET',
  path: '/player/gacha/history',
  group: 'gacha',
  readOnly: true,
  summary:
    "The player's own draws (kept gacha.historyDays days, at least 90), newest first: what each paid and drew; by gacha and time, in pages.",
  request: objWithOptional(
    {},
    {
      gachaId: PosInt,
      /** Game-local times (YYYY-MM-DDTHH:mm:ss, as answers give them): draws at or after from, and before to. */
      from: LocalTime,
      to: LocalTime,
      /** The page, from 1; pageSize draws a page (default 20, at most 100). */
      page: PosInt,
      pageSize: IntRange(1, HISTORY_PAGE_MAX),
    },
    'GetHistoryPlayerGachaRequest',
  ),
  response: t.type(
    {
      draws: t.array(HistoryEntry),
      /** Records matching the filters, on every page. */
      total: num,
      page: num,
      pageSize: num,
      /** Days of draws the service keeps (master data gacha.historyDays). */
      historyDays: num,
    },
    'GetHistoryPlayerGachaResponse',
  ),
  errors: ['INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const gachaApi = [draw, fix, getAll, box, pointToCharacter, history] as const;
