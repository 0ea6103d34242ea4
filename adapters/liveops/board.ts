// The live game's operator-side state, read on every request: the maintenance window
// and the notices in force, cached here from the records (liveops/records.ts) and
// read again every MASTER_POLL_SECONDS on a store several processes share. Present
// sends are kept for their recall. Records are decoded as strictly as a player's state.
import * as t from 'io-ts';
import { Grant } from '../../core/master/common.js';
import type { LiveOpsRecords, RecordKind } from './records.js';

const num = t.number;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const Maintenance = t.type({
  from: num,
  until: num,
  message: t.string,
  /** Players who play through it (the team checking the game before it opens). */
  allowPlayerIds: t.array(num),
  by: t.string,
  setAt: num,
});
export type Maintenance = t.TypeOf<typeof Maintenance>;

export const NOTICE_KINDS = ['maintenance', 'banner', 'update', 'event', 'info'] as const;
export const NoticeKind = t.keyof({ maintenance: null, banner: null, update: null, event: null, info: null });

export const Notice = t.type({
  id: num,
  kind: NoticeKind,
  title: t.string,
  body: t.string,
  from: num,
  until: nullable(num),
  by: t.string,
  createdAt: num,
  withdrawnAt: nullable(num),
});
export type Notice = t.TypeOf<typeof Notice>;

export const Send = t.type({
  id: num,
  at: num,
  by: t.string,
  grant: Grant,
  title: t.string,
  message: t.string,
  deadline: nullable(num),
  /** To whom: one player, a list, or every player. */
  target: t.keyof({ one: null, list: null, all: null }),
  /** Players whose box received it. */
  sent: num,
  recalledAt: nullable(num),
  /** Of the recall: presents taken back, and those already received (left with the player). */
  removed: num,
  alreadyReceived: num,
});
export type Send = t.TypeOf<typeof Send>;

const MAINTENANCE_ID = 1;

const decoded = <C extends t.Mixed>(codec: C, kind: RecordKind, id: number, u: unknown): t.TypeOf<C> => {
  const d = codec.decode(u);
  if (d._tag === 'Left') throw new Error(`the ${kind} record ${id} does not decode as stored`);
  return d.right;
};

export class LiveOps {
  private maintenance: Maintenance | null = null;
  private notices: Notice[] = [];

  constructor(readonly records: LiveOpsRecords) {}

  /** Reads the window and the notices again (another process may have changed them). */
  async refresh(): Promise<void> {
    const m = await this.records.get('maintenance', MAINTENANCE_ID);
    this.maintenance = m === undefined ? null : decoded(Maintenance, 'maintenance', MAINTENANCE_ID, m);
    this.notices = (await this.records.list('notice')).map((r) => decoded(Notice, 'notice', r.id, r.body));
  }

  /** The window set (in force, or still to come), if any. */
  get window(): Maintenance | null {
    return this.maintenance;
  }

  /** The window in force at `now`: it starts and ends by itself. */
  maintenanceAt(now: number): Maintenance | null {
    const m = this.maintenance;
    return m && m.from <= now && now < m.until ? m : null;
  }

  async setMaintenance(m: Maintenance): Promise<void> {
    await this.records.put('maintenance', MAINTENANCE_ID, m);
    this.maintenance = m;
  }

  /** Ends (or cancels) the window; false when none was set. */
  async clearMaintenance(): Promise<boolean> {
    await this.refresh();
    if (!this.maintenance) return false;
    await this.records.remove('maintenance', MAINTENANCE_ID);
    this.maintenance = null;
    return true;
  }

  /** Every notice, withdrawn ones too, newest first. */
  get allNotices(): ReadonlyArray<Notice> {
    return [...this.notices].sort((a, b) => b.id - a.id);
  }

  /** The notices players see at `now`: started, not ended, not withdrawn; newest first. */
  noticesAt(now: number): Notice[] {
    return this.allNotices.filter(
      (n) => n.withdrawnAt === null && n.from <= now && (n.until === null || now < n.until),
    );
  }

  async addNotice(n: Omit<Notice, 'id'>): Promise<Notice> {
    const notice = { ...n, id: await this.records.nextId('notice') };
    await this.records.put('notice', notice.id, notice);
    this.notices = [...this.notices.filter((x) => x.id !== notice.id), notice];
    return notice;
  }

  /** Withdraws a notice not yet withdrawn; undefined when there is none such. */
  async withdrawNotice(id: number, now: number): Promise<Notice | undefined> {
    await this.refresh();
    const n = this.notices.find((x) => x.id === id && x.withdrawnAt === null);
    if (!n) return undefined;
    const withdrawn = { ...n, withdrawnAt: now };
    await this.records.put('notice', id, withdrawn);
    this.notices = this.notices.map((x) => (x.id === id ? withdrawn : x));
    return withdrawn;
  }

  /** A new send's id, before its presents go out (each carries it). */
  nextSendId(): Promise<number> {
    return this.records.nextId('send');
  }

  /** Keeps a send: its record, and the players it reached (what a recall walks). */
  async keepSend(send: Send, playerIds: ReadonlyArray<number>): Promise<void> {
    await this.records.put('sendTargets', send.id, playerIds);
    await this.records.put('send', send.id, send);
  }

  async send(id: number): Promise<{ send: Send; playerIds: number[] } | undefined> {
    const s = await this.records.get('send', id);
    if (s === undefined) return undefined;
    const ids = decoded(t.array(num), 'sendTargets', id, (await this.records.get('sendTargets', id)) ?? []);
    return { send: decoded(Send, 'send', id, s), playerIds: ids };
  }

  async sends(): Promise<Send[]> {
    return (await this.records.list('send')).map((r) => decoded(Send, 'send', r.id, r.body)).reverse();
  }

  async markRecalled(send: Send): Promise<void> {
    await this.records.put('send', send.id, send);
  }
}
