// A fast-check model-based harness over the real reducers: a run builds a fresh
// World from a generated setup, then plays a generated sequence of commands (an
// operation by name, the player who sends it, minutes passed before it, and the
// small numbers its request's fields are picked from). After every step your check
// sees the players before and after, the request and the result; it fails the
// property by returning false or a message, or by throwing. fast-check shrinks a
// failing run to a short sequence, printed with each step's request.
import fc from 'fast-check';
import { accessOf, type Executed } from '../core/operation.js';
import { operationByName, OPERATIONS, type OperationName } from '../core/operations/table.js';
import type { Result } from '../core/shared/result.js';
import type { PlayerState } from '../core/state.js';
import type { Master } from '../core/master/index.js';
import { buildRequest, Chooser, templateOf } from './model.js';
import type { World } from './world.js';

/** One step as the check sees it. */
export interface Step {
  /** The step's index in the run, from 0. */
  readonly index: number;
  readonly name: string;
  /** The player who sent it. */
  readonly playerId: number;
  readonly request: unknown;
  readonly now: number;
  readonly result: Result<Executed>;
  /** Every player before and after the step (unchanged players are the same objects). */
  readonly before: ReadonlyMap<number, PlayerState>;
  readonly after: ReadonlyMap<number, PlayerState>;
  readonly world: World;
  readonly master: Master;
}

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

export interface PropertyOptions<S> {
  /** What a run's world is built from (generated, so fast-check can shrink it too). */
  readonly setup: fc.Arbitrary<S>;
  /** Builds a fresh world from a setup: called once per run. */
  readonly world: (setup: S) => World;
  /** The operations a run picks from (default: every session operation with a request template). */
  readonly operations?: ReadonlyArray<OperationName | string>;
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
  readonly check: (step: Step, model: Model) => Verdict;
  /** Told of every run's model at its end (coverage counts, say). */
  readonly onRun?: (model: Model) => void;
  /**
   * Also check every step is a pure function (default true): the inputs are not
   * mutated, and the same players, request, seed and time give a byte-identical result.
   */
  readonly determinism?: boolean;
}

/** Every session operation with a request template (what a run picks from by default). */
export const SESSION_OPERATIONS: ReadonlyArray<string> = OPERATIONS.filter(
  (o) => accessOf(o) === 'session' && templateOf(o.name) != null,
).map((o) => o.name);

class OpCommand implements fc.Command<Model, World> {
  constructor(
    readonly name: string,
    readonly player: number,
    readonly minutes: number,
    readonly picks: ReadonlyArray<number>,
    private readonly opts: PropertyOptions<unknown>,
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
    const name = this.name as OperationName;
    const inputs = this.opts.determinism === false ? '' : JSON.stringify([[...before.values()], request]);
    const again =
      this.opts.determinism === false
        ? ''
        : JSON.stringify(world.run(name, me.playerId, request, { seed, dryRun: true }));
    const result = world.run(name, me.playerId, request, { seed }) as Result<Executed>;
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
    const step: Step = {
      index: model.steps,
      name: this.name,
      playerId: me.playerId,
      request,
      now: world.now,
      result,
      before,
      after: world.snapshot(),
      world,
      master: world.master,
    };
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
 * after every step. Run it with `fc.assert(operationsProperty({...}), { numRuns, seed })`.
 */
export const operationsProperty = <S>(opts: PropertyOptions<S>) => {
  const names = opts.operations ?? SESSION_OPERATIONS;
  for (const n of names) if (!operationByName(n)) throw new Error(`no operation ${n} in the table`);
  const command = fc
    .record({
      op: fc.constantFrom(...names),
      player: fc.nat(7),
      minutes: opts.minutes ?? fc.oneof(fc.constant(0), fc.nat(30), fc.nat(600)),
      picks: fc.array(fc.nat(10_000), { minLength: 3, maxLength: 12 }),
    })
    .map((c) => new OpCommand(c.op, c.player, c.minutes, c.picks, opts as PropertyOptions<unknown>));
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
