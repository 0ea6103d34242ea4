// An entry on no player (app/version/get, the notices): its reducer on the unborn state
// of no one, with the game data and the notices in force; nothing locked or committed.
import { unbornPlayer } from '../../core/account.js';
import type { Master } from '../../core/master/index.js';
import { execute, type AnyOperation, type LiveNotice } from '../../core/operation.js';
import { lazyRng } from '../../core/rng.js';
import { E } from '../../core/shared/result.js';
import type { Answer } from './answers.js';
import { deriveSeed } from './seed.js';

export interface NoOneEnv {
  readonly seedSecret: string;
  readonly master: Master;
  readonly notices: ReadonlyArray<LiveNotice>;
}

export const answerNoOne = (op: AnyOperation, request: unknown, now: number, env: NoOneEnv): Answer => {
  const rng = lazyRng(() => deriveSeed(env.seedSecret, 'none', now));
  const r = execute(op, unbornPlayer(0), request, rng, now, { master: env.master, others: [], notices: env.notices });
  return E.isLeft(r) ? r : E.right(r.right.response);
};
