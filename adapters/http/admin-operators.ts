// The operators' routes: sign in and out, who am I, the operators (created, disabled
// and re-enabled by an administrator), personal API tokens (each revocable on its
// own), and the audit trail. The accounts are adapters/operators/accounts.ts.
import { requestError } from '../../core/codecs.js';
import { gameError, type GameError } from '../../core/errors.js';
import { E } from '../../core/shared/result.js';
import { formatTime } from '../../core/time.js';
import type { Actor, AuditEntry, Operator, OperatorAccounts, OperatorToken } from '../operators/accounts.js';
import { PERMISSIONS, allows } from '../operators/roles.js';
import { AUDIT_LIMIT, CreateOperator, CreateToken, SignIn } from './admin-operators-codecs.js';
import { parseOperatorTime, TIME_FORMS } from './admin-time.js';
import { bodyOf, invalid, pathId, type RouteAnswer, type RouteCtx } from './admin-route.js';

type Answer = RouteAnswer;
type Ctx = RouteCtx;

export interface OperatorRouteDeps {
  readonly route: (name: string, handler: (ctx: Ctx) => Promise<Answer>) => void;
  readonly accounts: OperatorAccounts;
  readonly nowOf: (ctx: Ctx) => number;
  readonly offsetOf: (ctx: Ctx) => number;
  readonly actorOf: (ctx: Ctx) => Actor;
}

const conflict = (reason: string): Answer => E.left(gameError('STATE_CONFLICT', { reason }));
/** A wrong name or password: the answer a wrong token gets (counted with the address's failures). */
const refused = (): Answer => E.left(gameError('PLAYER_SESSION_EXPIRED', {}));

export const operatorRoutes = (d: OperatorRouteDeps): void => {
  const { accounts } = d;
  const time = (ctx: Ctx, ms: number | null) => (ms === null ? null : formatTime(ms, d.offsetOf(ctx)));
  const operatorView = (ctx: Ctx, o: Operator) => ({
    name: o.name,
    role: o.role,
    createdAt: time(ctx, o.createdAt) as string,
    createdBy: o.createdBy,
    disabledAt: time(ctx, o.disabledAt),
  });
  const tokenView = (ctx: Ctx, tk: OperatorToken, names: Map<number, string>) => ({
    id: tk.id,
    operator: names.get(tk.operatorId) ?? '?',
    name: tk.name,
    createdAt: time(ctx, tk.createdAt) as string,
    lastUsedAt: time(ctx, tk.lastUsedAt),
    revokedAt: time(ctx, tk.endedAt),
  });
  const names = async () => new Map((await accounts.list()).map((o) => [o.id, o.name]));

  d.route('adminSignIn', async (ctx) => {
    const req = SignIn.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const op = await accounts.signIn(req.right.name, req.right.password);
    if (!op) return refused();
    const s = await accounts.startSession(op, d.nowOf(ctx));
    return E.right({ token: s.token, name: op.name, role: op.role, expiresAt: time(ctx, s.expiresAt) });
  });

  d.route('adminSignOut', async (ctx) => {
    const a = d.actorOf(ctx);
    if (a.via !== 'session' || a.secretId === null)
      return conflict('not signed in with a session (revoke a personal token instead)');
    await accounts.endSession(a.secretId, d.nowOf(ctx));
    return E.right({});
  });

  d.route('adminMe', async (ctx) => {
    const a = d.actorOf(ctx);
    return E.right({
      name: a.name,
      role: a.role,
      via: a.via,
      permissions: PERMISSIONS.filter((p) => p !== 'anyone' && allows(a.role, p)),
    });
  });

  d.route('adminOperators', async (ctx) =>
    E.right({ operators: (await accounts.list()).map((o) => operatorView(ctx, o)) }),
  );

  d.route('adminCreateOperator', async (ctx) => {
    const req = CreateOperator.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const { name, role, password } = req.right;
    if (name === 'admin') return invalid('name', '"admin" names ADMIN_TOKEN in the audit; choose another');
    const op = await accounts.create(name, role, password, d.actorOf(ctx).name, d.nowOf(ctx));
    return op === 'taken'
      ? conflict(`an operator is already named ${name}`)
      : E.right({ operator: operatorView(ctx, op) });
  });

  const setDisabled = (disabled: boolean) => async (ctx: Ctx) => {
    const name = ctx.params['name'] ?? '';
    if (disabled && name === d.actorOf(ctx).name) return conflict('an operator cannot disable itself');
    const op = await accounts.setDisabled(name, disabled, d.nowOf(ctx));
    return op
      ? E.right({ operator: operatorView(ctx, op) })
      : E.left(gameError('NOT_FOUND', { entity: 'operator', id: name }));
  };
  d.route('adminDisableOperator', setDisabled(true));
  d.route('adminEnableOperator', setDisabled(false));

  d.route('adminTokens', async (ctx) => {
    const a = d.actorOf(ctx);
    const all = await accounts.tokens();
    const mine = allows(a.role, 'admin') ? all : all.filter((x) => x.operatorId === a.operatorId);
    const n = await names();
    return E.right({ tokens: mine.reverse().map((x) => tokenView(ctx, x, n)) });
  });

  d.route('adminCreateToken', async (ctx) => {
    const req = CreateToken.decode(bodyOf(ctx));
    if (req._tag === 'Left') return E.left(requestError(req.left));
    const a = d.actorOf(ctx);
    const op = a.operatorId === null ? undefined : (await accounts.list()).find((o) => o.id === a.operatorId);
    if (!op) return conflict('ADMIN_TOKEN has no operator to own a token: sign in as an operator');
    const { token, record } = await accounts.createToken(op, req.right.name, d.nowOf(ctx));
    return E.right({ token, record: tokenView(ctx, record, await names()) });
  });

  d.route('adminRevokeToken', async (ctx) => {
    const given = pathId(ctx, 'tokenId');
    if (E.isLeft(given)) return given.left;
    const id = given.right;
    const a = d.actorOf(ctx);
    const tk = (await accounts.tokens()).find((x) => x.id === id && x.endedAt === null);
    // Another operator's token is not found, unless the caller administers.
    if (!tk || (tk.operatorId !== a.operatorId && !allows(a.role, 'admin')))
      return E.left(gameError('NOT_FOUND', { entity: 'token not revoked', id }));
    const revoked = (await accounts.revokeToken(id, d.nowOf(ctx))) as OperatorToken;
    return E.right({ token: tokenView(ctx, revoked, await names()) });
  });

  d.route('adminAudit', async (ctx) => {
    const one = (k: string): string | undefined => {
      const v = ctx.query[k];
      return Array.isArray(v) ? v[0] : v;
    };
    const num = (k: string): E.Either<Answer, number | undefined> => {
      const v = one(k);
      if (v === undefined) return E.right(undefined);
      return /^\d+$/.test(v) && Number(v) >= 1 ? E.right(Number(v)) : E.left(invalid(k, 'must be a positive integer'));
    };
    const at = (k: string): E.Either<Answer, number | undefined> => {
      const v = one(k);
      if (v === undefined) return E.right(undefined);
      const ms = parseOperatorTime(v, d.offsetOf(ctx));
      return ms === undefined ? E.left(invalid(k, `must be ${TIME_FORMS}`)) : E.right(ms);
    };
    const [playerId, limit, from, to] = [num('playerId'), num('limit'), at('from'), at('to')];
    for (const x of [playerId, limit, from, to]) if (E.isLeft(x)) return x.left;
    const n = E.isRight(limit) ? (limit.right ?? 100) : 100;
    if (n > AUDIT_LIMIT) return invalid('limit', `must be at most ${AUDIT_LIMIT}`);
    const operator = one('operator');
    const action = one('action');
    const entries = await accounts.auditTrail({
      ...(operator !== undefined ? { operator } : {}),
      ...(action !== undefined ? { action } : {}),
      ...(E.isRight(playerId) && playerId.right !== undefined ? { playerId: playerId.right } : {}),
      ...(E.isRight(from) && from.right !== undefined ? { from: from.right } : {}),
      ...(E.isRight(to) && to.right !== undefined ? { to: to.right } : {}),
      limit: n,
    });
    return E.right({
      entries: entries.map((e: AuditEntry) => ({
        ...e,
        at: time(ctx, e.at) as string,
        params: Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, String(v)])),
        request: JSON.stringify(e.request ?? {}),
        answer: e.answer === null || e.answer === undefined ? null : JSON.stringify(e.answer),
      })),
    });
  });
};
