// The operators' endpoints as the admin table lists them: signing in and out, who am
// I, the operators (an administrator's), personal API tokens, and the audit trail.
import * as t from 'io-ts';
import { DisplayText, PosInt } from '../../core/codecs.js';
import type { AdminOperation } from './admin-operation.js';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);
const RoleC = t.keyof({ viewer: null, support: null, designer: null, admin: null });
/** Operator names: letters, digits, dot, dash, underscore (they appear in logs and the audit). */
export const OperatorName = new t.RefinementType<t.StringC>(
  'OperatorName',
  (u): u is string => typeof u === 'string' && /^[A-Za-z0-9._-]{2,32}$/.test(u),
  (u, c) =>
    typeof u === 'string' && /^[A-Za-z0-9._-]{2,32}$/.test(u)
      ? t.success(u)
      : t.failure(u, c, 'must be 2 to 32 letters, digits, dots, dashes or underscores'),
  t.identity,
  t.string,
  (s) => /^[A-Za-z0-9._-]{2,32}$/.test(s),
);
export const Password = new t.RefinementType<t.StringC>(
  'OperatorPassword',
  (u): u is string => typeof u === 'string' && u.length >= 12 && u.length <= 200,
  (u, c) =>
    typeof u === 'string' && u.length >= 12 && u.length <= 200
      ? t.success(u)
      : t.failure(u, c, 'must be 12 to 200 characters'),
  t.identity,
  t.string,
  (s) => s.length >= 12 && s.length <= 200,
);

export const SignIn = t.exact(t.type({ name: t.string, password: t.string }), 'AdminSignInRequest');
const SignInResponse = t.type(
  {
    /** Send as Authorization: Bearer <token>; ends at sign-out, after OPERATOR_IDLE_SECONDS unused or OPERATOR_SESSION_SECONDS. */
    token: t.string,
    name: t.string,
    role: RoleC,
    expiresAt: t.string,
  },
  'AdminSignInResponse',
);
const MeResponse = t.type(
  {
    name: t.string,
    role: RoleC,
    /** session (the console), token (a personal API token) or bootstrap (ADMIN_TOKEN). */
    via: t.string,
    /** What the role may do: the console hides the rest. */
    permissions: t.array(t.string),
  },
  'AdminMeResponse',
);
export const CreateOperator = t.exact(
  t.type({ name: OperatorName, role: RoleC, password: Password }),
  'AdminCreateOperatorRequest',
);
const OperatorView = t.type(
  { name: t.string, role: RoleC, createdAt: t.string, createdBy: t.string, disabledAt: nullable(t.string) },
  'AdminOperatorView',
);
const OperatorsResponse = t.type({ operators: t.array(OperatorView) }, 'AdminOperatorsResponse');
const OperatorResponse = t.type({ operator: OperatorView }, 'AdminOperatorResponse');
export const CreateToken = t.exact(t.type({ name: DisplayText(1, 64) }), 'AdminCreateTokenRequest');
const TokenView = t.type(
  {
    id: t.number,
    operator: t.string,
    name: t.string,
    createdAt: t.string,
    lastUsedAt: nullable(t.string),
    revokedAt: nullable(t.string),
  },
  'AdminTokenView',
);
const TokensResponse = t.type({ tokens: t.array(TokenView) }, 'AdminTokensResponse');
const NewTokenResponse = t.type(
  {
    /** Shown once: only its hash is kept. */
    token: t.string,
    record: TokenView,
  },
  'AdminNewTokenResponse',
);
const AuditView = t.type(
  {
    id: t.number,
    at: t.string,
    operator: t.string,
    via: t.string,
    ip: t.string,
    action: t.string,
    /** The path's parameters. */
    params: t.record(t.string, t.string),
    /** What was asked and what it answered, as JSON text (secrets left out, long texts by size and hash). */
    request: t.string,
    resultCode: t.number,
    answer: nullable(t.string),
    playerIds: t.array(t.number),
  },
  'AdminAuditEntry',
);
const AuditResponse = t.type({ entries: t.array(AuditView) }, 'AdminAuditResponse');
export const AUDIT_LIMIT = 500;

const ERR = ['DB_ERROR', 'UNKNOWN_ERROR'] as const;

export const OPERATOR_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminSignIn',
    needs: 'anyone',
    method: 'POST',
    path: '/admin/session',
    summary: 'Sign in with an operator name and password',
    description:
      "No token needed. A wrong name or password answers 401 with result code 203 (the same for both), counted with the address's other failures (as a wrong ADMIN_TOKEN is). A disabled operator cannot sign in. The session's token ends at sign-out, unused for OPERATOR_IDLE_SECONDS, or OPERATOR_SESSION_SECONDS after sign-in.",
    request: SignIn,
    response: SignInResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'PLAYER_SESSION_EXPIRED', ...ERR],
  },
  {
    name: 'adminSignOut',
    needs: 'read',
    method: 'DELETE',
    path: '/admin/session',
    summary: "End the caller's console session",
    description:
      'The token stops working at once, on every process. With a personal token or ADMIN_TOKEN: 317 (revoke a personal token instead).',
    response: t.type({}, 'AdminSignOutResponse'),
    writes: true,
    errors: ['STATE_CONFLICT', ...ERR],
  },
  {
    name: 'adminMe',
    needs: 'read',
    method: 'GET',
    path: '/admin/me',
    summary: 'Who the caller is, and what the role may do',
    description:
      'The operator (or "admin" for ADMIN_TOKEN), the role, how the caller signed in, and the permissions the role holds.',
    response: MeResponse,
    errors: [...ERR],
  },
  {
    name: 'adminOperators',
    needs: 'admin',
    method: 'GET',
    path: '/admin/operators',
    summary: 'The operators',
    description: 'Every operator, with role, who created it and when, and whether it is disabled.',
    response: OperatorsResponse,
    errors: [...ERR],
  },
  {
    name: 'adminCreateOperator',
    needs: 'admin',
    method: 'POST',
    path: '/admin/operators',
    summary: 'Create an operator',
    description:
      'role is viewer (reads), support (presents to players, sessions, suspension, recall, notices), designer (game data: publish, preview, schedule) or admin (everything, and operators). The password (12 to 200 characters) is kept as a scrypt hash. A name taken is 317. Logged and audited.',
    request: CreateOperator,
    response: OperatorResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'STATE_CONFLICT', ...ERR],
  },
  {
    name: 'adminDisableOperator',
    needs: 'admin',
    method: 'POST',
    path: '/admin/operators/:name/disable',
    summary: 'Disable an operator',
    description:
      'Its sessions and tokens stop working at their next request, on every process; it cannot sign in. An administrator cannot disable itself (317). Unknown: 107. Logged and audited.',
    pathParameters: { name: OperatorName },
    response: OperatorResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'STATE_CONFLICT', ...ERR],
  },
  {
    name: 'adminEnableOperator',
    needs: 'admin',
    method: 'POST',
    path: '/admin/operators/:name/enable',
    summary: 'Re-enable an operator',
    description: 'It may sign in again; its personal tokens not revoked work again. Unknown: 107. Logged and audited.',
    pathParameters: { name: OperatorName },
    response: OperatorResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', ...ERR],
  },
  {
    name: 'adminTokens',
    needs: 'read',
    method: 'GET',
    path: '/admin/tokens',
    summary: 'Personal API tokens',
    description:
      "The caller's own tokens (an administrator sees every operator's), revoked ones too; never the tokens themselves.",
    response: TokensResponse,
    errors: [...ERR],
  },
  {
    name: 'adminCreateToken',
    needs: 'read',
    method: 'POST',
    path: '/admin/tokens',
    summary: 'Create a personal API token',
    description:
      "A token for scripts, acting as the caller with the caller's role; shown once (only its hash is kept). ADMIN_TOKEN has no operator to own one: 317. Logged and audited.",
    request: CreateToken,
    response: NewTokenResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'STATE_CONFLICT', ...ERR],
  },
  {
    name: 'adminRevokeToken',
    needs: 'read',
    method: 'POST',
    path: '/admin/tokens/:tokenId/revoke',
    summary: 'Revoke a personal API token',
    description:
      "It stops working at its next request, on every process, with no restart. One's own, or any with the admin role; another's, revoked already or unknown: 107. Logged and audited.",
    pathParameters: { tokenId: PosInt },
    response: t.type({ token: TokenView }, 'AdminRevokeTokenResponse'),
    writes: true,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', ...ERR],
  },
  {
    name: 'adminAudit',
    needs: 'admin',
    method: 'GET',
    path: '/admin/audit',
    summary: 'The audit trail of operator writes',
    description: `Every operator write, newest first: who (operator, or admin for ADMIN_TOKEN, and how signed in), when, from which address, what was asked and what it did (result code and answer). Filters: operator, action (the operation's name), playerId (named by the action), from and to (times); at most \`limit\` (1–${AUDIT_LIMIT}, default 100).`,
    queryParameters: {
      operator: { codec: t.string, description: 'only this operator (admin: ADMIN_TOKEN)' },
      action: { codec: t.string, description: 'only this operation (adminDeliverPresents …)' },
      playerId: { codec: PosInt, description: 'only actions naming this player' },
      from: { codec: t.string, description: 'not before this time' },
      to: { codec: t.string, description: 'not after this time' },
      limit: { codec: PosInt, description: `at most this many (default 100, up to ${AUDIT_LIMIT})` },
    },
    response: AuditResponse,
    errors: ['INVALID_PARAMETERS', ...ERR],
  },
];
