// The descriptions of core/operations/gacha-draw.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { IntEnum, objWithOptional, PosInt, Int, Flag } from '../codecs.js';
import { DRAW_SINGLE, DRAW_PAID_SINGLE, DRAW_TEN } from '../gacha/stats.js';
import * as t from 'io-ts';
import { GachaResult } from '../views/gacha.js';
import { CharacterView } from '../views/codecs.js';

/** drawType on the wire (the original's values). */
export const DrawType = IntEnum('DrawType', {
  [DRAW_SINGLE]: "single draw: the gacha's ticket when held, else gems (free first)",
  [DRAW_PAID_SINGLE]: 'single draw with paid gems only',
  [DRAW_TEN]: 'ten-draw with gems (the first ten-draw may be discounted)',
});

export const num = t.number;
export const bool = t.boolean;

// ---- draw ----
export const DrawRequest = objWithOptional(
  { gachaId: PosInt, drawType: DrawType },
  { stepCode: Int, reDraw: Flag },
  'DrawPlayerGachaRequest',
);

// ---- fix ----
export const FixRequest = objWithOptional({}, { gachaId: PosInt }, 'FixPlayerGachaRequest');

export const draw = describeOp({
  name: 'drawPlayerGacha',
  method: 'POST',
  path: '/player/gacha/draw',
  group: 'gacha',
  summary:
    "Draws a gacha once or ten times; the server pays with the ticket when held, else gems; the characters are owned at once. On a re-draw gacha the result stays replaceable until the player moves on: a further draw of it (reDraw true, or the same draw again) re-rolls it, taking back the last result's characters. stepCode records the tutorial step (4: the tutorial gacha).",
  request: DrawRequest,
  response: t.type(
    {
      gachaResults: t.array(GachaResult),
      /** Whether the result is held, not granted: always false since issue 33 (every draw is owned at once). */
      pending: bool,
      /** True while a further draw of this re-draw gacha would re-roll the result (until the player moves on). */
      replaceable: bool,
      managedCharacters: t.array(CharacterView),
    },
    'DrawPlayerGachaResponse',
  ),
  errors: [
    'NOT_FOUND',
    'GACHA_OUT_OF_PERIOD',
    'GACHA_DRAW_LIMIT',
    'INVALID_PARAMETERS',
    'GEM_IS_SHORT',
    'UNLIMITED_GEM_IS_SHORT',
  ],
});

export const fix = describeOp({
  name: 'fixPlayerGacha',
  method: 'POST',
  path: '/player/gacha/fix',
  group: 'gacha',
  summary:
    "Makes a re-draw gacha's replaceable result final and closes the gacha for the player (the result is owned already; one held before issue 33 is granted now).",
  request: FixRequest,
  response: t.type(
    { gachaId: num, gachaResults: t.array(GachaResult), managedCharacters: t.array(CharacterView) },
    'FixPlayerGachaResponse',
  ),
  errors: ['NOT_FOUND', 'GACHA_NOTHING_PENDING'],
});
