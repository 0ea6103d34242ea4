// Time arithmetic without a clock: every instant is epoch milliseconds handed in.
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** Civil date from days since 1970-01-01 (Howard Hinnant's algorithm), so the core needs no Date. */
const civil = (days: number): { y: number; m: number; d: number } => {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
};

const daysFromCivil = (y: number, m: number, d: number): number => {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
};

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

// Responses format the same instants again and again (every owned thing's creation
// time, the envelope's serverTime): kept by whole second, per UTC offset.
const formatted = new Map<number, Map<number, string>>();
const FORMAT_CACHE_MAX = 10_000;

/** `YYYY-MM-DDTHH:mm:ss` of an instant at a fixed UTC offset (minutes). */
export const formatTime = (ms: number, offsetMinutes: number): string => {
  let byOffset = formatted.get(offsetMinutes);
  if (byOffset === undefined) {
    byOffset = new Map();
    formatted.set(offsetMinutes, byOffset);
  }
  const second = Math.floor(ms / SECOND);
  const hit = byOffset.get(second);
  if (hit !== undefined) return hit;
  const text = formatUncached(second * SECOND, offsetMinutes);
  if (byOffset.size >= FORMAT_CACHE_MAX) byOffset.clear();
  byOffset.set(second, text);
  return text;
};

const formatUncached = (ms: number, offsetMinutes: number): string => {
  const local = ms + offsetMinutes * MINUTE;
  const days = Math.floor(local / DAY);
  const { y, m, d } = civil(days);
  const rest = local - days * DAY;
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(Math.floor(rest / HOUR))}:${pad(Math.floor((rest % HOUR) / MINUTE))}:${pad(Math.floor((rest % MINUTE) / SECOND))}`;
};

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/;
/** Parses the `formatTime` form back to an instant; undefined when malformed. */
export const parseTime = (s: string, offsetMinutes: number): number | undefined => {
  const m = LOCAL_TIME.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 59) return undefined;
  return daysFromCivil(y, mo, d) * DAY + h * HOUR + mi * MINUTE + se * SECOND - offsetMinutes * MINUTE;
};

/** The game day an instant falls in: days since epoch at the offset, shifted by the daily reset hour. */
export const dayIndex = (ms: number, offsetMinutes: number, resetHour: number): number =>
  Math.floor((ms + offsetMinutes * MINUTE - resetHour * HOUR) / DAY);

/** Weekday (0 Sunday … 6 Saturday) of a game day index. 1970-01-01 was a Thursday. */
export const weekdayOf = (day: number): number => (((day + 4) % 7) + 7) % 7;

/** Local hour (0-23) of an instant at the offset. */
export const hourOf = (ms: number, offsetMinutes: number): number =>
  Math.floor(((((ms + offsetMinutes * MINUTE) % DAY) + DAY) % DAY) / HOUR);

/** A UTC offset in minutes as ISO 8601 writes it: 540 is "+09:00", -90 is "-01:30". */
export const zoneText = (offsetMinutes: number): string => {
  const a = Math.abs(offsetMinutes);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(a / 60))}:${two(a % 60)}`;
};
