// The game data's versions as a store keeps them: every version ever published (its
// files, by hash, so a replay finds the numbers each entry ran with) and the schedule
// of which version takes effect when. The JSON-file store keeps them under
// DATA_DIR/master/, PostgreSQL in tables (postgres-master.ts), the memory store here.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MasterFiles } from './load.js';

/** A published version: its hash names it (the replay log's masterHash). */
export interface MasterVersion {
  readonly version: string;
  readonly publishedAt: number;
  /** Who published it (the operator, or "start-up" for the files the server started with). */
  readonly by: string;
  readonly note: string;
}

/** A version taking effect at an instant; cancelled ones stay in the history. */
export interface MasterScheduleEntry {
  readonly id: number;
  readonly version: string;
  readonly at: number;
  readonly by: string;
  readonly note: string;
  readonly createdAt: number;
  readonly cancelledAt: number | null;
}

/** What a store holds of the game data's versions (the files aside). */
export interface MasterLedger {
  readonly versions: ReadonlyArray<MasterVersion>;
  readonly schedule: ReadonlyArray<MasterScheduleEntry>;
}

export interface MasterRegistry {
  /** Keeps a version's files and its record (once: a version published again keeps its first record). */
  saveVersion(files: MasterFiles, meta: MasterVersion): Promise<void>;
  readFiles(version: string): Promise<MasterFiles | undefined>;
  readLedger(): Promise<MasterLedger>;
  /** Adds a schedule entry (its id given by the store). */
  schedule(entry: Omit<MasterScheduleEntry, 'id' | 'cancelledAt'>): Promise<MasterScheduleEntry>;
  /** Cancels a schedule entry not yet in effect at `now`; false when there is none such. */
  cancel(id: number, now: number): Promise<boolean>;
}

/** Whether an entry can still be cancelled at `now`: not cancelled, and not yet in effect. */
export const cancellable = (e: MasterScheduleEntry, now: number): boolean => e.cancelledAt === null && e.at > now;

/** The registry of a process with no store of its own (the memory storage, tests). */
export class MemoryMasterRegistry implements MasterRegistry {
  protected files = new Map<string, MasterFiles>();
  protected ledger: { versions: MasterVersion[]; schedule: MasterScheduleEntry[] } = { versions: [], schedule: [] };

  async saveVersion(files: MasterFiles, meta: MasterVersion): Promise<void> {
    if (!this.files.has(meta.version)) this.files.set(meta.version, files);
    if (!this.ledger.versions.some((v) => v.version === meta.version)) this.ledger.versions.push(meta);
    this.persist();
  }

  async readFiles(version: string): Promise<MasterFiles | undefined> {
    return this.files.get(version);
  }

  async readLedger(): Promise<MasterLedger> {
    return { versions: [...this.ledger.versions], schedule: [...this.ledger.schedule] };
  }

  async schedule(entry: Omit<MasterScheduleEntry, 'id' | 'cancelledAt'>): Promise<MasterScheduleEntry> {
    const e = { ...entry, id: this.ledger.schedule.length + 1, cancelledAt: null };
    this.ledger.schedule.push(e);
    this.persist();
    return e;
  }

  async cancel(id: number, now: number): Promise<boolean> {
    const i = this.ledger.schedule.findIndex((e) => e.id === id && cancellable(e, now));
    const e = this.ledger.schedule[i];
    if (!e) return false;
    this.ledger.schedule[i] = { ...e, cancelledAt: now };
    this.persist();
    return true;
  }

  /** Nothing to keep in memory. */
  protected persist(): void {}
}

/** Writes a file whole or not at all: a temporary copy, then a rename. */
const writeWhole = (path: string, text: string): void => {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
};

/**
 * DATA_DIR/master/: each version's files as <hash>.json (the snapshot the replay
 * reads) and ledger.json, the versions' records and the schedule (one process
 * writes them: the JSON-file store is used by one).
 */
export class FileMasterRegistry extends MemoryMasterRegistry {
  private readonly dir: string;
  constructor(dataDir: string) {
    super();
    this.dir = join(dataDir, 'master');
    mkdirSync(this.dir, { recursive: true });
    const ledger = join(this.dir, 'ledger.json');
    if (existsSync(ledger)) this.ledger = JSON.parse(readFileSync(ledger, 'utf8')) as typeof this.ledger;
  }

  override async saveVersion(files: MasterFiles, meta: MasterVersion): Promise<void> {
    const path = join(this.dir, `${meta.version}.json`);
    if (!existsSync(path)) writeWhole(path, JSON.stringify(files));
    await super.saveVersion(files, meta);
  }

  override async readFiles(version: string): Promise<MasterFiles | undefined> {
    const path = join(this.dir, `${version}.json`);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as MasterFiles) : undefined;
  }

  protected override persist(): void {
    writeWhole(join(this.dir, 'ledger.json'), JSON.stringify(this.ledger));
  }
}
