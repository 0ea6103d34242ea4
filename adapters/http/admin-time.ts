// Instants as an operator writes them: the wire's time (the game's time zone, as every
// answer's times) or ISO 8601 with a zone.
import * as t from 'io-ts';
import { parseTime } from '../../core/time.js';

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
export const TIME_FORMS =
  "a time as 2026-12-31T23:59:59 (the game's time zone, as every answer's times) or ISO 8601 with a zone (2026-12-31T14:59:59Z)";

/** An instant as an operator writes it: the wire's time (the game's zone) or ISO 8601 with a zone. */
export const parseOperatorTime = (s: string, offsetMinutes: number): number | undefined => {
  if (WIRE_TIME.test(s)) return parseTime(s, offsetMinutes);
  if (!ISO_TIME.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : undefined;
};

/** A string in one of the two forms (checked again, with the calendar, when converted). */
export const OperatorTime = new t.RefinementType<t.StringC>(
  'OperatorTime',
  (u): u is string => typeof u === 'string' && (WIRE_TIME.test(u) || ISO_TIME.test(u)),
  (u, c) =>
    typeof u === 'string' && (WIRE_TIME.test(u) || ISO_TIME.test(u))
      ? t.success(u)
      : t.failure(u, c, `must be ${TIME_FORMS}`),
  t.identity,
  t.string,
  (s) => WIRE_TIME.test(s) || ISO_TIME.test(s),
);
