// Which game data serves a request: the version in force at the request's `now`, from
// the schedule the registry keeps (the latest entry not cancelled whose instant has
// come), else the version the process started with. Every process reads the same
// schedule (refresh), so all switch at the same instant, with no restart; a request
// is served whole by one version, chosen by its `now`.
import type { Master } from '../../core/master/index.js';
import { masterFromFiles, masterSourceOf, type MasterFiles } from './load.js';
import type { MasterLedger, MasterRegistry, MasterScheduleEntry } from './registry.js';

/** A version's master data and its hash. */
export interface MasterInForce {
  readonly master: Master;
  readonly version: string;
}

export class MasterBook {
  private readonly built = new Map<string, Master>();
  /** The schedule's live entries, latest instant last. */
  private timeline: MasterScheduleEntry[] = [];
  private ledger: MasterLedger = { versions: [], schedule: [] };

  /**
   * @param leadMs how far ahead "now" is when a version is scheduled for now: 0 for a
   * store one process uses; on a shared store, long enough for every process to have
   * read the schedule (two polls), so none serves a request after the instant with
   * the version before it.
   */
  constructor(
    readonly base: MasterInForce,
    private readonly registry: MasterRegistry,
    readonly leadMs = 0,
  ) {
    this.built.set(base.version, base.master);
  }

  /** A version's files (the base's as it was read), or undefined when not kept. */
  async filesOf(version: string): Promise<MasterFiles | undefined> {
    const m = this.built.get(version);
    return (m && masterSourceOf(m)?.raw) ?? (await this.registry.readFiles(version));
  }

  /** The version in force at `now`. */
  at(now: number): MasterInForce {
    for (let i = this.timeline.length - 1; i >= 0; i--) {
      const e = this.timeline[i] as MasterScheduleEntry;
      if (e.at <= now) return { version: e.version, master: this.built.get(e.version) as Master };
    }
    return this.base;
  }

  /** The versions' records and the schedule as last read. */
  get known(): MasterLedger {
    return this.ledger;
  }

  /** A version's master data (built once), or undefined when no such version is kept. */
  async version(version: string): Promise<Master | undefined> {
    const have = this.built.get(version);
    if (have) return have;
    const files = await this.registry.readFiles(version);
    if (!files) return undefined;
    const m = masterFromFiles(files);
    this.built.set(version, m);
    return m;
  }

  /** Reads the schedule again (every process does, every few seconds) and builds the versions it names. */
  async refresh(): Promise<void> {
    const ledger = await this.registry.readLedger();
    const live = ledger.schedule.filter((e) => e.cancelledAt === null);
    for (const e of live) {
      if (!(await this.version(e.version)))
        throw new Error(`the schedule names version ${e.version}, which is not kept`);
    }
    this.timeline = [...live].sort((a, b) => a.at - b.at || a.id - b.id);
    this.ledger = ledger;
  }

  /** Keeps a version's files (validated before) and reads the ledger again. */
  async publish(files: MasterFiles, master: Master, version: string, by: string, note: string, now: number) {
    this.built.set(version, master);
    await this.registry.saveVersion(files, { version, publishedAt: now, by, note });
    await this.refresh();
  }

  async schedule(version: string, at: number, by: string, note: string, now: number): Promise<MasterScheduleEntry> {
    const e = await this.registry.schedule({ version, at, by, note, createdAt: now });
    await this.refresh();
    return e;
  }

  async cancel(id: number, now: number): Promise<boolean> {
    const ok = await this.registry.cancel(id, now);
    await this.refresh();
    return ok;
  }
}
