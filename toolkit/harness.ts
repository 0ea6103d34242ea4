// A fast-check model-based harness over the real reducers: a run builds a fresh
// World from a generated setup, then plays a generated sequence of commands (an
// operation by name, the player who sends it, minutes passed before it, and the
// small numbers its request's fields are picked from). After every step your check
// sees the players before and after, the request and the result; it fails the
// property by returning false or a message, or by throwing. fast-check shrinks a
// failing run to a short sequence, printed with each step's request; assertProperty
// reports it with the check's own message first.
import fc from 'fast-check';
import { accessOf, type Executed } from '../core/operation.js';
import {
  operationByName,
  operationNamed,
  OPERATIONS,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../core/operations/table.js';
import type { GameError } from '../core/errors.js';
import type { Result } from '../core/shared/result.js';
import type { PlayerState } from '../core/state.js';
import type { Master } from '../core/master/index.js';
import { buildRequest, Chooser, templateOf } from './model.js';
import type { World } from './world.js';

/** What every step of operation N carries, whatever its outcome. */
interface StepOf<N extends OperationName> {
  /** The step's index in the run, from 0. */
  readonly index: number;
  readonly name: N;
  /** The player who sent it. */
  readonly playerId: number;
  /** The request as built, before its codec decoded it. */
  readonly sent: unknown;
  readonly now: number;
  readonly result: Result<Executed<ResponseOf<N>>>;
  /** Every player before and after the step (unchanged players are the same objects). */
  readonly before: ReadonlyMap<number, PlayerState>;
  readonly after: ReadonlyMap<number, PlayerState>;
  /** The sender's state before and after the step. */
  readonly player: { readonly before: PlayerState; readonly after: PlayerState };
  readonly world: World;
  readonly master: Master;
}

/** A step the reducer accepted: the request as it decoded it, and its answer. */
interface Accepted<N extends OperationName> extends StepOf<N> {
  readonly ok: true;
  readonly request: RequestOf<N>;
  readonly answer: Executed<ResponseOf<N>>['response'];
}

/** A refused step: the request as decoded (undefined when its own codec refused it) and the error. */
interface Refused<N extends OperationName> extends StepOf<N> {
  readonly ok: false;
  readonly request: RequestOf<N> | undefined;
  readonly error: GameError;
}

/**
 * One step as the check sees it, typed by operation name: Step<'drawPlayerGacha'>'s
 * request and answer are the draw's (/player/gacha/draw). Step (every name) narrows on `name`,
 * and on `ok` to the answer or the error.
 */
export type Step<N extends OperationName = OperationName> = {
  [K in N]: Accepted<K> | Refused<K>;
}[N];

/** What a check answers: true/undefined hold; false or a message fail. */
export type Verdict = boolean | string | void;

/** The model a run keeps beside the world: what it has seen so far. */
export interface Model {
  steps: number;
  /** Successes by operation name; refusals by result code. */
  readonly ok: Record<string, number>;
  readonly refused: Record<string, number>;
  /** The check's own memory for the run (ids seen so far, say). */
  readonly memo: Map<string, unknown>;
}

export interface PropertyOptions<S, N extends OperationName = OperationName> {
  /** What a run's world is built from (generated, so fast-check can shrink it too). */
  readonly setup: fc.Arbitrary<S>;
  /** Builds a fresh world from a setup: called once per run. */
  readonly world: (setup: S) => World;
  /** The operations a run picks from (default: every session operation with a request template). */
  readonly operations?: ReadonlyArray<N>;
  /** Builds a request (default: the template of model.ts with its fields re-picked by the chooser). */
  readonly request?: (
    name: string,
    me: PlayerState,
    other: PlayerState,
    choose: Chooser,
    now: number,
    m: Master,
  ) => unknown;
  /** Minutes the clock moves before each step (default: 0, up to 30 or up to 600). */
  readonly minutes?: fc.Arbitrary<number>;
  /** Steps a run makes at most (default 40). */
  readonly maxSteps?: number;
  /** The property, checked after every step. */
  readonly check: (step: Step<N>, model: Model) => Verdict;
  /** Told of every run's model at its end (coverage counts, say). */
  readonly onRun?: (model: Model) => void;
  /**
   * Also check every step is a pure function (default true): the inputs are not
   * mutated, and the same players, request, seed and time give a byte-identical result.
   */
  readonly determinism?: boolean;
}

/** Every session operation with a request template (what a run picks from by default). */
export const SESSION_OPERATIONS: ReadonlyArray<OperationName> = OPERATIONS.filter(
  (o) => accessOf(o) === 'session' && templateOf(o.name) != null,
)
  // The erased table's names are the typed table's.
  .map((o) => o.name as OperationName);

class OpCommand implements fc.Command<Model, World> {
  constructor(
    readonly name: OperationName,
    readonly player: number,
    readonly minutes: number,
    readonly picks: ReadonlyArray<number>,
    private readonly opts: PropertyOptions<unknown, OperationName>,
    private readonly shown: { request?: unknown } = {},
  ) {}

  check(): boolean {
    return true;
  }

  run(model: Model, world: World): void {
    const ids = world.players.map((p) => p.playerId);
    if (ids.length === 0) throw new Error('the world has no players');
    const me = world.player(ids[this.player % ids.length] as number);
    const other = world.player(ids[(this.player + 1) % ids.length] as number);
    world.advance(this.minutes * 60_000);
    const build = this.opts.request ?? ((n, s, o, c, now, m) => buildRequest(n, s, o, c, now, m));
    const request = build(this.name, me, other, new Chooser(this.picks), world.now, world.master);
    this.shown.request = request;
    const before = world.snapshot();
    const seed = world.seedFor(me.playerId);
    const name = this.name;
    const inputs = this.opts.determinism === false ? '' : JSON.stringify([[...before.values()], request]);
    const again =
      this.opts.determinism === false
        ? ''
        : JSON.stringify(world.run(name, me.playerId, request, { seed, dryRun: true }));
    const result = world.run(name, me.playerId, request, { seed });
    if (this.opts.determinism !== false) {
      if (JSON.stringify([[...before.values()], request]) !== inputs)
        throw new Error(`step ${model.steps} ${this.name} ${JSON.stringify(request)}: the inputs were mutated`);
      if (JSON.stringify(result) !== again)
        throw new Error(
          `step ${model.steps} ${this.name} ${JSON.stringify(request)}: the same inputs gave another output`,
        );
    }
    if (result._tag === 'Right') model.ok[this.name] = (model.ok[this.name] ?? 0) + 1;
    else model.refused[result.left.code] = (model.refused[result.left.code] ?? 0) + 1;
    const after = world.snapshot();
    const common = {
      index: model.steps,
      name,
      playerId: me.playerId,
      sent: request,
      now: world.now,
      result,
      before,
      after,
      player: { before: me, after: after.get(me.playerId) ?? me },
      world,
      master: world.master,
    };
    // The reducer saw the request as its codec decoded it (the same decoding run made).
    const decoded = operationNamed(name).request.decode(request ?? {});
    const typed = decoded._tag === 'Right' ? decoded.right : undefined;
    // One name's request and answer: the compiler cannot pair them through the union of names.
    let step: Step;
    if (result._tag === 'Left') step = { ...common, ok: false, request: typed, error: result.left } as Step;
    else if (typed === undefined) throw new Error(`${name}: the reducer ran on a request its codec refuses`);
    else step = { ...common, ok: true, request: typed, answer: result.right.response } as Step;
    model.steps++;
    const verdict = this.opts.check(step, model);
    if (verdict === false || typeof verdict === 'string') {
      throw new Error(
        `step ${step.index} ${this.name} by player ${me.playerId} ${JSON.stringify(request)}: ${verdict === false ? 'the check failed' : verdict}`,
      );
    }
  }

  toString(): string {
    return `${this.name}(player#${this.player}, +${this.minutes}min${this.shown.request === undefined ? '' : `, ${JSON.stringify(this.shown.request)}`})`;
  }
}

/**
 * A fast-check property: for a generated setup and command sequence, the check holds
 * after every step. Run it with `assertProperty(operationsProperty({...}), { numRuns, seed })`.
 * Naming `operations` types the check's steps by those names.
 */
export const operationsProperty = <S, const N extends OperationName = OperationName>(opts: PropertyOptions<S, N>) => {
  const names = opts.operations ?? SESSION_OPERATIONS;
  for (const n of names) if (!operationByName(n)) throw new Error(`no operation ${n} in the table`);
  const command = fc
    .record({
      op: fc.constantFrom(...names),
      player: fc.nat(7),
      minutes: opts.minutes ?? fc.oneof(fc.constant(0), fc.nat(30), fc.nat(600)),
      picks: fc.array(fc.nat(10_000), { minLength: 3, maxLength: 12 }),
    })
    // Only the names of N are drawn, so the check only ever sees steps of N.
    .map((c) => new OpCommand(c.op, c.player, c.minutes, c.picks, opts as unknown as PropertyOptions<unknown>));
  return fc.property(
    opts.setup,
    fc.commands([command], { maxCommands: opts.maxSteps ?? 40, size: 'max' }),
    (setup, cmds) => {
      const model: Model = { steps: 0, ok: {}, refused: {}, memo: new Map() };
      fc.modelRun(() => ({ model, real: opts.world(setup) }), cmds);
      opts.onRun?.(model);
    },
  );
};

/**
 * fc.assert, reporting the failed check's own message first: fast-check 4 keeps the
 * error as the report's cause, which test runners (ava) do not print, so the
 * counterexample alone said nothing of what broke.
 */
export const assertProperty = <Ts>(property: fc.IProperty<Ts>, params?: fc.Parameters<Ts>): void => {
  const out = fc.check(property, params);
  if (!out.failed) return;
  const cause = out.errorInstance;
  const why = cause instanceof Error ? cause.message : String(cause);
  throw new Error(`${why}\n\n${fc.defaultReportMessage(out) ?? 'the property failed'}`, { cause });
};
