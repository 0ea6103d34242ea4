// The operator's records beside the players: the maintenance window, notices, present
// sends (for recall), and later operators and the audit trail. Small documents by kind
// and id, kept by the store the game runs on: the JSON-file store under
// DATA_DIR/liveops/ (one process), PostgreSQL in a table every process reads
// (postgres-liveops.ts), tests in memory.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** What the records hold: each kind its own numbered documents. */
export type RecordKind =
  'maintenance' | 'notice' | 'send' | 'sendTargets' | 'operator' | 'operatorToken' | 'operatorSession' | 'audit';

export interface LiveOpsRecords {
  /** Every record of a kind, by ascending id. */
  list(kind: RecordKind): Promise<Array<{ id: number; body: unknown }>>;
  get(kind: RecordKind, id: number): Promise<unknown>;
  /** Puts a record (a new id, or over the one there). */
  put(kind: RecordKind, id: number, body: unknown): Promise<void>;
  remove(kind: RecordKind, id: number): Promise<void>;
  /** The next id of a kind: never given twice. */
  nextId(kind: RecordKind): Promise<number>;
}

type Shelf = { next: number; records: Record<string, unknown> };

/** The records of a process with no store of its own (the memory storage, tests). */
export class MemoryLiveOpsRecords implements LiveOpsRecords {
  protected shelves = new Map<RecordKind, Shelf>();

  protected shelf(kind: RecordKind): Shelf {
    let s = this.shelves.get(kind);
    if (!s) this.shelves.set(kind, (s = { next: 1, records: {} }));
    return s;
  }

  async list(kind: RecordKind): Promise<Array<{ id: number; body: unknown }>> {
    return Object.entries(this.shelf(kind).records)
      .map(([id, body]) => ({ id: Number(id), body: structuredClone(body) }))
      .sort((a, b) => a.id - b.id);
  }

  async get(kind: RecordKind, id: number): Promise<unknown> {
    const b = this.shelf(kind).records[String(id)];
    return b === undefined ? undefined : structuredClone(b);
  }

  async put(kind: RecordKind, id: number, body: unknown): Promise<void> {
    const s = this.shelf(kind);
    s.records[String(id)] = structuredClone(body);
    s.next = Math.max(s.next, id + 1);
    this.persist(kind);
  }

  async remove(kind: RecordKind, id: number): Promise<void> {
    delete this.shelf(kind).records[String(id)];
    this.persist(kind);
  }

  async nextId(kind: RecordKind): Promise<number> {
    const s = this.shelf(kind);
    const id = s.next++;
    this.persist(kind);
    return id;
  }

  /** Nothing to keep in memory. */
  protected persist(_kind: RecordKind): void {}
}

/** Writes a file whole or not at all, and durably: a temporary copy synced, then a rename. */
const writeDurably = (path: string, text: string): void => {
  const fd = openSync(`${path}.tmp`, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(`${path}.tmp`, path);
};

/** DATA_DIR/liveops/<kind>.json: each kind's records and its next id (one process writes them). */
export class FileLiveOpsRecords extends MemoryLiveOpsRecords {
  private readonly dir: string;
  constructor(dataDir: string) {
    super();
    this.dir = join(dataDir, 'liveops');
    mkdirSync(this.dir, { recursive: true });
  }

  protected override shelf(kind: RecordKind): Shelf {
    if (!this.shelves.has(kind)) {
      const path = join(this.dir, `${kind}.json`);
      if (existsSync(path)) this.shelves.set(kind, JSON.parse(readFileSync(path, 'utf8')) as Shelf);
    }
    return super.shelf(kind);
  }

  protected override persist(kind: RecordKind): void {
    writeDurably(join(this.dir, `${kind}.json`), JSON.stringify(this.shelf(kind)));
  }
}
