// Operators by name: their accounts (a role, a password as a slow hash, disabled or
// not), console sessions (idle and absolute expiry), personal API tokens (each
// revocable on its own) and the audit trail of what each did. Kept in the live-ops
// records (the JSON-file store or PostgreSQL, every process reading the same), so a
// token revoked or an operator disabled on one process is refused by every other at
// its next request: nothing is cached.
import { createHash, randomBytes } from 'node:crypto';
import * as t from 'io-ts';
import type { LiveOpsRecords, RecordKind } from '../liveops/records.js';
import { checkPassword, hashPassword } from './password.js';
import { isRole, type Role } from './roles.js';

const num = t.number;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);
const RoleC = t.keyof({ viewer: null, support: null, designer: null, admin: null });

export const Operator = t.type({
  id: num,
  name: t.string,
  role: RoleC,
  passwordHash: t.string,
  createdAt: num,
  createdBy: t.string,
  disabledAt: nullable(num),
});
export type Operator = t.TypeOf<typeof Operator>;

const Secret = t.type({
  id: num,
  operatorId: num,
  /** sha256 of the secret (the secret itself is given once and never kept). */
  hash: t.string,
  createdAt: num,
  endedAt: nullable(num),
});
export const OperatorToken = t.intersection([Secret, t.type({ name: t.string, lastUsedAt: nullable(num) })]);
export type OperatorToken = t.TypeOf<typeof OperatorToken>;
export const OperatorSession = t.intersection([Secret, t.type({ lastSeenAt: num })]);
export type OperatorSession = t.TypeOf<typeof OperatorSession>;

/** Who made a request: an operator (by session or personal token) or ADMIN_TOKEN (the bootstrap administrator). */
export interface Actor {
  readonly name: string;
  readonly role: Role;
  readonly via: 'session' | 'token' | 'bootstrap';
  readonly operatorId: number | null;
  /** The session or token record used (for sign-out). */
  readonly secretId: number | null;
}

export const AuditEntry = t.type({
  id: num,
  at: num,
  operator: t.string,
  via: t.string,
  ip: t.string,
  action: t.string,
  params: t.record(t.string, t.unknown),
  request: t.unknown,
  resultCode: num,
  answer: t.unknown,
  /** Players the action named (path, request): the audit's player filter. */
  playerIds: t.array(num),
});
export type AuditEntry = t.TypeOf<typeof AuditEntry>;

export interface Expiry {
  /** A console session unused this long ends. */
  readonly idleMs: number;
  /** And ends this long after sign-in, used or not. */
  readonly absoluteMs: number;
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;

const decodeAll = <C extends t.Mixed>(codec: C, kind: RecordKind, rows: Array<{ id: number; body: unknown }>) =>
  rows.map((r) => {
    const d = codec.decode(r.body);
    if (d._tag === 'Left') throw new Error(`the ${kind} record ${r.id} does not decode as stored`);
    return d.right as t.TypeOf<C>;
  });

export class OperatorAccounts {
  constructor(
    private readonly records: LiveOpsRecords,
    readonly expiry: Expiry,
  ) {}

  async list(): Promise<Operator[]> {
    return decodeAll(Operator, 'operator', await this.records.list('operator'));
  }

  async byName(name: string): Promise<Operator | undefined> {
    return (await this.list()).find((o) => o.name === name);
  }

  async create(name: string, role: Role, password: string, by: string, now: number): Promise<Operator | 'taken'> {
    if (await this.byName(name)) return 'taken';
    const op: Operator = {
      id: await this.records.nextId('operator'),
      name,
      role,
      passwordHash: await hashPassword(password),
      createdAt: now,
      createdBy: by,
      disabledAt: null,
    };
    await this.records.put('operator', op.id, op);
    return op;
  }

  /** Disables (now) or re-enables an operator; undefined when there is none such. */
  async setDisabled(name: string, disabled: boolean, now: number): Promise<Operator | undefined> {
    const op = await this.byName(name);
    if (!op) return undefined;
    const next = { ...op, disabledAt: disabled ? (op.disabledAt ?? now) : null };
    await this.records.put('operator', op.id, next);
    return next;
  }

  /** The operator a name and password sign in, if they do (a disabled one never does). */
  async signIn(name: string, password: string): Promise<Operator | undefined> {
    const op = await this.byName(name);
    // A missing name costs the same as a wrong password: the answer does not tell which.
    const ok = await checkPassword(password, op?.passwordHash ?? DUMMY_HASH);
    return op && ok && op.disabledAt === null ? op : undefined;
  }

  async startSession(op: Operator, now: number): Promise<{ token: string; expiresAt: number }> {
    const token = newSecret('hss');
    const id = await this.records.nextId('operatorSession');
    const s: OperatorSession = {
      id,
      operatorId: op.id,
      hash: sha256(token),
      createdAt: now,
      endedAt: null,
      lastSeenAt: now,
    };
    await this.records.put('operatorSession', id, s);
    await this.pruneSessions(now);
    return { token, expiresAt: now + this.expiry.absoluteMs };
  }

  async endSession(id: number, now: number): Promise<void> {
    const s = await this.records.get('operatorSession', id);
    if (s !== undefined) await this.records.put('operatorSession', id, { ...(s as OperatorSession), endedAt: now });
  }

  async createToken(op: Operator, name: string, now: number): Promise<{ token: string; record: OperatorToken }> {
    const token = newSecret('hst');
    const id = await this.records.nextId('operatorToken');
    const record: OperatorToken = {
      id,
      operatorId: op.id,
      name,
      hash: sha256(token),
      createdAt: now,
      endedAt: null,
      lastUsedAt: null,
    };
    await this.records.put('operatorToken', id, record);
    return { token, record };
  }

  async tokens(): Promise<OperatorToken[]> {
    return decodeAll(OperatorToken, 'operatorToken', await this.records.list('operatorToken'));
  }

  /** Revokes a token not yet revoked; undefined when there is none such. */
  async revokeToken(id: number, now: number): Promise<OperatorToken | undefined> {
    const r = (await this.tokens()).find((x) => x.id === id && x.endedAt === null);
    if (!r) return undefined;
    const revoked = { ...r, endedAt: now };
    await this.records.put('operatorToken', id, revoked);
    return revoked;
  }

  /** Who a bearer secret is, now: a live session or token of an enabled operator. */
  async resolve(secret: string, now: number): Promise<Actor | undefined> {
    const hash = sha256(secret);
    const ops = new Map((await this.list()).map((o) => [o.id, o]));
    const live = (id: number) => {
      const op = ops.get(id);
      return op && op.disabledAt === null && isRole(op.role) ? op : undefined;
    };
    if (secret.startsWith('hss_')) {
      const sessions = decodeAll(OperatorSession, 'operatorSession', await this.records.list('operatorSession'));
      const s = sessions.find((x) => x.hash === hash);
      if (!s || s.endedAt !== null || !this.sessionLive(s, now)) return undefined;
      const op = live(s.operatorId);
      if (!op) return undefined;
      await this.records.put('operatorSession', s.id, { ...s, lastSeenAt: now });
      return { name: op.name, role: op.role, via: 'session', operatorId: op.id, secretId: s.id };
    }
    const tk = (await this.tokens()).find((x) => x.hash === hash);
    if (!tk || tk.endedAt !== null) return undefined;
    const op = live(tk.operatorId);
    if (!op) return undefined;
    await this.records.put('operatorToken', tk.id, { ...tk, lastUsedAt: now });
    return { name: op.name, role: op.role, via: 'token', operatorId: op.id, secretId: tk.id };
  }

  private sessionLive(s: OperatorSession, now: number): boolean {
    return now - s.lastSeenAt < this.expiry.idleMs && now - s.createdAt < this.expiry.absoluteMs;
  }

  /** Ended and expired sessions are of no more use: removed as new ones start. */
  private async pruneSessions(now: number): Promise<void> {
    const sessions = decodeAll(OperatorSession, 'operatorSession', await this.records.list('operatorSession'));
    for (const s of sessions)
      if (s.endedAt !== null || !this.sessionLive(s, now)) await this.records.remove('operatorSession', s.id);
  }

  async audit(entry: Omit<AuditEntry, 'id'>): Promise<AuditEntry> {
    const e = { ...entry, id: await this.records.nextId('audit') };
    await this.records.put('audit', e.id, e);
    return e;
  }

  /** The audit trail, newest first, filtered; at most `limit` entries. */
  async auditTrail(f: {
    readonly operator?: string;
    readonly action?: string;
    readonly playerId?: number;
    readonly from?: number;
    readonly to?: number;
    readonly limit: number;
  }): Promise<AuditEntry[]> {
    return decodeAll(AuditEntry, 'audit', await this.records.list('audit'))
      .filter(
        (e) =>
          (f.operator === undefined || e.operator === f.operator) &&
          (f.action === undefined || e.action === f.action) &&
          (f.playerId === undefined || e.playerIds.includes(f.playerId)) &&
          (f.from === undefined || e.at >= f.from) &&
          (f.to === undefined || e.at <= f.to),
      )
      .reverse()
      .slice(0, f.limit);
  }
}

/** A hash no password matches in reasonable time: checked when the name is unknown. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
