// A world of players for designers' properties and simulations: players created as
// sign-up creates them, every operation run through the core's reducers by its
// table name (runNamed), the other players an operation names found as the service
// finds them (by id, friend code, relations, recent activity), and each request's
// seed derived as the server derives it (an HMAC of a secret, the player and the
// state's version). Nothing here is a test double: it is the game without HTTP and
// storage.
import { createPlayer } from '../core/account.js';
import type { Master } from '../core/master/index.js';
import type { Grant } from '../core/master/common.js';
import type { Executed, OtherRef } from '../core/operation.js';
import { operationByName, runNamed, type OperationName, type ResponseOf } from '../core/operations/table.js';
import { rngFromSeed } from '../core/rng.js';
import { setItem } from '../core/shared/pay.js';
import { sendPresent, tryGrant } from '../core/shared/grant.js';
import type { Result } from '../core/shared/result.js';
import type { PlayerState } from '../core/state.js';
import { relatedPlayerIds } from '../core/state/social.js';
import { deriveSeed } from '../adapters/service/seed.js';
import { loadMaster } from '../adapters/master/load.js';
import { gameTime, type GameTime } from './time.js';

export interface WorldOptions {
  /** Master data (default: loaded from `masterDir`, or the bundled fixtures). */
  readonly master?: Master;
  readonly masterDir?: string;
  /** The secret seeds are derived from (the server's SEED_SECRET); fixed by default so runs repeat. */
  readonly seedSecret?: string;
  /** The world's clock: an instant, or a game-local time (`YYYY-MM-DDTHH:mm:ss`). Default 2026-11-21T12:00:00 game time. */
  readonly now?: number | string;
}

export interface NewPlayerOptions {
  readonly playerId?: number;
  readonly name?: string;
  /** The tutorial step recorded at sign-up (0: none). */
  readonly stepCode?: number;
}

/** Currencies and items set directly, as a setup (not an operation: no version, no log). */
export interface Holdings {
  readonly gold?: number;
  readonly gem?: number;
  readonly paidGem?: number;
  readonly kirara?: number;
  /** itemId → amount held (replaces the amount; 0 removes the item). */
  readonly items?: Readonly<Record<number, number>>;
  /** Characters granted as a draw would (a duplicate becomes its limit-break items). */
  readonly characters?: ReadonlyArray<number>;
}

export interface RunOptions {
  /** When the operation runs (default: the world's clock). */
  readonly now?: number;
  /** The rng's seed (default: derived as the server derives it). */
  readonly seed?: string;
  /** Run without keeping the outcome (default false: a success replaces the players it changed). */
  readonly dryRun?: boolean;
}

export class World {
  readonly master: Master;
  readonly time: GameTime;
  readonly seedSecret: string;
  /** The world's clock (epoch ms); operations run at it unless told otherwise. */
  now: number;
  private readonly states = new Map<number, PlayerState>();
  /** Player ids by last change, most recent last (what "recently active" reads). */
  private readonly activity: number[] = [];
  private nextId = 1;

  constructor(opts: WorldOptions = {}) {
    this.master = opts.master ?? loadMaster(opts.masterDir);
    this.time = gameTime(this.master);
    this.seedSecret = opts.seedSecret ?? 'toolkit-seed-secret';
    const now = opts.now ?? '2026-11-21T12:00:00';
    this.now = typeof now === 'string' ? this.time.at(now) : now;
  }

  /** Moves the clock on by `ms`, or to a game-local time; returns the new now. */
  advance(ms: number): number {
    this.now += ms;
    return this.now;
  }
  setTime(localOrMs: string | number): number {
    this.now = typeof localOrMs === 'string' ? this.time.at(localOrMs) : localOrMs;
    return this.now;
  }

  /** Signs a player up as the service does (the sign-up seed derived from the secret and the id). */
  createPlayer(opts: NewPlayerOptions = {}): PlayerState {
    const playerId = opts.playerId ?? this.nextId;
    if (this.states.has(playerId)) throw new Error(`player ${playerId} exists`);
    this.nextId = Math.max(this.nextId, playerId + 1);
    const r = createPlayer(
      this.master,
      {
        playerId,
        uuid: `toolkit-${playerId}`,
        platform: 1,
        name: opts.name ?? '',
        stepCode: opts.stepCode ?? 0,
        tokenHash: '',
      },
      rngFromSeed(deriveSeed(this.seedSecret, 'signup', playerId, 0)),
      this.now,
    );
    if (r._tag === 'Left') throw new Error(`createPlayer: ${r.left.code} ${JSON.stringify(r.left)}`);
    this.keep(r.right);
    return r.right;
  }

  /** A player's state (throws for an unknown id). */
  player(playerId: number): PlayerState {
    const s = this.states.get(playerId);
    if (!s) throw new Error(`no player ${playerId} in the world`);
    return s;
  }

  find(playerId: number): PlayerState | undefined {
    return this.states.get(playerId);
  }

  /** Every player, by id. */
  get players(): PlayerState[] {
    return [...this.states.values()].sort((a, b) => a.playerId - b.playerId);
  }

  /** A copy of every player's state, by id (states are immutable: the copy is of the map). */
  snapshot(): ReadonlyMap<number, PlayerState> {
    return new Map(this.states);
  }

  /** Replaces a player's state (a setup step; the state is taken as given). */
  put(s: PlayerState): void {
    this.keep(s);
  }

  /** Sets currencies and items and grants characters directly: a setup, not an operation. */
  give(playerId: number, h: Holdings): PlayerState {
    let s = this.player(playerId);
    s = {
      ...s,
      gold: h.gold ?? s.gold,
      gem: h.gem ?? s.gem,
      paidGem: h.paidGem ?? s.paidGem,
      kirara: h.kirara ?? s.kirara,
    };
    for (const [id, n] of Object.entries(h.items ?? {}))
      if (this.master.item.has(Number(id))) s = { ...s, items: setItem(s.items, Number(id), n) };
    for (const id of h.characters ?? []) {
      const r = tryGrant(this.master, s, { kind: 'character', objectId: id, amount: 1 }, this.now);
      if (r._tag === 'Right') s = r.right.state;
    }
    this.keep(s);
    return s;
  }

  /** Sends a present as the operator's admin API does (a new version). */
  sendPresent(playerId: number, grant: Grant, title = 'Present'): PlayerState {
    const s = this.player(playerId);
    const next = {
      ...sendPresent(s, grant, { title, message: '', source: 'operator', deadline: null }, this.now).state,
      version: s.version + 1,
    };
    this.keep(next);
    return next;
  }

  /** Receives every present in the box (present/get, as many rounds as receiveMax needs). */
  receiveAll(playerId: number): PlayerState {
    for (let round = 0; round < 100; round++) {
      const s = this.player(playerId);
      const ids = s.presents.slice(0, this.master.game.presents.receiveMax).map((p) => p.managedPresentId);
      if (ids.length === 0) break;
      const r = this.run('getPlayerPresent', playerId, { managedPresentId: ids.join(','), stepCode: 0 });
      if (r._tag === 'Left' || this.player(playerId).presents.length === s.presents.length) break;
    }
    return this.player(playerId);
  }

  /** The players an operation's request names, found as the service finds them (undefined: none). */
  othersFor(name: string, playerId: number, request: unknown): Array<PlayerState | undefined> {
    const op = operationByName(name);
    if (!op?.touches) return [];
    const d = op.request.decode(request ?? {});
    if (d._tag === 'Left') return [];
    const me = this.player(playerId);
    return op.touches(d.right).flatMap((r: OtherRef): Array<PlayerState | undefined> => {
      switch (r.by) {
        case 'playerId':
          return [this.states.get(r.playerId)];
        case 'myCode':
          return [this.players.find((p) => p.myCode === r.myCode)];
        case 'related':
          return relatedPlayerIds(me).map((id) => this.states.get(id));
        case 'recentlyActive':
          return [...this.activity]
            .reverse()
            .filter((id) => id !== playerId)
            .slice(0, r.count)
            .map((id) => this.states.get(id));
      }
    });
  }

  /** The seed the server would use for this player's next request (its state's version). */
  seedFor(playerId: number): string {
    return deriveSeed(this.seedSecret, playerId, this.player(playerId).version, 0);
  }

  /**
   * Runs an operation for a player by its table name: the request decoded by its codec,
   * the others it names looked up, the seed derived as the server does; a success
   * replaces every player it changed. The answer is typed by the operation's codecs.
   */
  run<N extends OperationName>(
    name: N,
    playerId: number,
    request: unknown,
    opts: RunOptions = {},
  ): Result<Executed<ResponseOf<N>>> {
    const me = this.player(playerId);
    const others = this.othersFor(name, playerId, request);
    const r = runNamed(name, me, request, rngFromSeed(opts.seed ?? this.seedFor(playerId)), opts.now ?? this.now, {
      master: this.master,
      others,
    });
    if (r._tag === 'Right' && !opts.dryRun) {
      if (r.right.state !== me) this.keep(r.right.state);
      r.right.others.forEach((o, i) => {
        if (o && o !== others[i] && o.playerId !== playerId) this.keep(o);
      });
    }
    return r;
  }

  private keep(s: PlayerState): void {
    this.states.set(s.playerId, s);
    const i = this.activity.indexOf(s.playerId);
    if (i >= 0) this.activity.splice(i, 1);
    this.activity.push(s.playerId);
  }
}
