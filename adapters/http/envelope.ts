// The envelope every /api and /admin answer is written in (WIRE.md): resultCode,
// resultMessage, serverTime, serverVersion, then the payload. Apart from app.ts, so
// that the admin router (which app.ts mounts) can take it without an import cycle.
import type Koa from 'koa';
import { messageOf, RESULT_CODES, type GameError } from '../../core/errors.js';
import { formatTime } from '../../core/time.js';
import type { GameService } from '../service/service.js';
import type { Config } from './config.js';
import { answerJson } from './json.js';
import { HTTP_STATUS } from './status.js';

/** What the envelope reads of a request's state (the admin router's too). */
type EnvelopeState = { requestId: string; now?: number; resultCode?: number };

/** The end times a client shows beside some refusals, in the game's time zone: maintenance's, a suspension's (null: none set). */
const timesOf = (e: GameError, time: (ms: number) => string): Record<string, unknown> =>
  e.code === 'MAINTENANCE'
    ? { maintenanceUntil: time(e.until) }
    : e.code === 'PLAYER_SUSPENDED'
      ? { suspendedUntil: e.until === null ? null : time(e.until) }
      : {};

const HEAD_KEYS = new Set(['resultCode', 'resultMessage', 'serverTime', 'serverVersion']);
const INDEX = /^(?:0|[1-9]\d*)$/;

/**
 * Whether a payload's members come after the head as they are, as `{ ...head, ...payload }`
 * orders them: none of the head's names, and no array-index name (an object puts those first).
 */
const apart = (payload: Record<string, unknown>): boolean => {
  const keys = Object.keys(payload);
  // Array-index names come first in an object's own keys: the first one tells.
  if (keys.length > 0 && INDEX.test(keys[0] as string)) return false;
  for (const k of keys) if (HEAD_KEYS.has(k)) return false;
  return true;
};

/** Writes the envelope: resultCode, resultMessage, serverTime, serverVersion, then the payload. */
export const envelope = (service: GameService, cfg: Pick<Config, 'always200' | 'serverVersion'>) => {
  // serverTime is the request's `now` (read once, by the first middleware), in the game's time zone then.
  const head = (ctx: { readonly state: { readonly now?: number } }, resultCode: number, resultMessage: string) => {
    const now = ctx.state.now ?? service.now();
    return {
      resultCode,
      resultMessage,
      serverTime: formatTime(now, service.masterAt(now).master.game.timezoneOffsetMinutes),
      serverVersion: cfg.serverVersion,
    };
  };
  const version = JSON.stringify(cfg.serverVersion);
  /** A success's head as JSON, written once per request rather than copied with the payload into a new object. */
  const okHead = (ctx: { readonly state: { readonly now?: number } }): string => {
    const now = ctx.state.now ?? service.now();
    const time = formatTime(now, service.masterAt(now).master.game.timezoneOffsetMinutes);
    return `"resultCode":0,"resultMessage":"","serverTime":${JSON.stringify(time)},"serverVersion":${version}`;
  };
  return {
    ok: (ctx: Koa.ParameterizedContext<EnvelopeState>, payload: Record<string, unknown>) => {
      ctx.status = 200;
      ctx.state.resultCode = 0;
      ctx.type = 'application/json';
      ctx.body = apart(payload) ? answerJson(payload, okHead(ctx)) : answerJson({ ...head(ctx, 0, ''), ...payload });
    },
    error: (ctx: Koa.ParameterizedContext<EnvelopeState>, e: GameError, extra: Record<string, unknown> = {}) => {
      const resultCode = RESULT_CODES[e.code].resultCode;
      ctx.status = cfg.always200 ? 200 : HTTP_STATUS[e.code];
      ctx.state.resultCode = resultCode;
      const now = ctx.state.now ?? service.now();
      const time = (ms: number) => formatTime(ms, service.masterAt(now).master.game.timezoneOffsetMinutes);
      ctx.body = { ...head(ctx, resultCode, messageOf(e)), ...timesOf(e, time), ...extra };
    },
    raw: (ctx: Koa.ParameterizedContext<EnvelopeState>, status: number, resultCode: number, message: string) => {
      ctx.status = cfg.always200 ? 200 : status;
      ctx.state.resultCode = resultCode;
      ctx.body = head(ctx, resultCode, message);
    },
  };
};

export type Envelope = ReturnType<typeof envelope>;
