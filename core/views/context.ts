// What every view is built in (the master data and the instant), and the game's times
// as the wire writes them. Apart from core/view.ts, which gathers the views: the
// group views (views/*.ts) import this, and view.ts imports them.
import type { Master } from '../master/index.js';
import { formatTime } from '../time.js';

export interface ViewCtx {
  readonly master: Master;
  readonly now: number;
}

export const timeText = (ctx: ViewCtx, ms: number): string => formatTime(ms, ctx.master.game.timezoneOffsetMinutes);
export const optTime = (ctx: ViewCtx, ms: number | null): string | null => (ms === null ? null : timeText(ctx, ms));
