// The operator's live-game endpoints as the admin table lists them: the maintenance
// window, suspensions, notices, and present sends with their recall. Their routes
// are admin-liveops.ts; the OpenAPI document and the console read this table.
import * as t from 'io-ts';
import { DisplayText, PosInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { NoticeKind } from '../liveops/board.js';
import type { AdminOperation } from './admin-operation.js';
import { OperatorTime, TIME_FORMS } from './admin-time.js';

const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const SetMaintenance = t.exact(
  t.intersection([
    t.type({ until: OperatorTime, message: DisplayText(1, 500, { multiline: true }) }),
    t.partial({ from: nullable(OperatorTime), allowPlayerIds: t.array(PosInt) }),
  ]),
  'AdminSetMaintenanceRequest',
);

const MaintenanceView = t.type(
  {
    from: t.string,
    until: t.string,
    message: t.string,
    allowPlayerIds: t.array(t.number),
    by: t.string,
    setAt: t.string,
    /** In force now (false: still to come). */
    inForce: t.boolean,
  },
  'AdminMaintenanceView',
);
const MaintenanceResponse = t.type({ maintenance: nullable(MaintenanceView) }, 'AdminMaintenanceResponse');

export const Suspend = t.exact(
  t.intersection([
    t.type({ reason: DisplayText(1, 500, { multiline: true }) }),
    t.partial({ until: nullable(OperatorTime) }),
  ]),
  'AdminSuspendRequest',
);
const SuspensionView = t.type(
  {
    from: t.string,
    until: nullable(t.string),
    reason: t.string,
    by: t.string,
    liftedAt: nullable(t.string),
  },
  'AdminSuspensionView',
);
export const SuspensionsResponse = t.type(
  { suspended: t.boolean, suspensions: t.array(SuspensionView) },
  'AdminSuspensionsResponse',
);

export const WriteNotice = t.exact(
  t.intersection([
    t.type({ kind: NoticeKind, title: DisplayText(1, 100), body: DisplayText(0, 4000, { multiline: true }) }),
    t.partial({ from: nullable(OperatorTime), until: nullable(OperatorTime) }),
  ]),
  'AdminWriteNoticeRequest',
);
const NoticeView = t.type(
  {
    id: t.number,
    kind: t.string,
    title: t.string,
    body: t.string,
    from: t.string,
    until: nullable(t.string),
    by: t.string,
    createdAt: t.string,
    withdrawnAt: nullable(t.string),
    /** Shown to players now. */
    inForce: t.boolean,
  },
  'AdminNoticeView',
);
const NoticesResponse = t.type({ notices: t.array(NoticeView) }, 'AdminNoticesResponse');
const NoticeResponse = t.type({ notice: NoticeView }, 'AdminNoticeResponse');

export const Recall = t.exact(t.type({ sendId: PosInt }), 'AdminRecallRequest');
const RecallResponse = t.type(
  {
    /** Presents taken back (unreceived). */
    removed: t.number,
    /** Presents of the send the players had received already: they keep them. */
    alreadyReceived: t.number,
    /** Players the send reached who still exist. */
    players: t.number,
  },
  'AdminRecallResponse',
);
const SendView = t.type(
  {
    sendId: t.number,
    at: t.string,
    by: t.string,
    grant: Grant,
    title: t.string,
    target: t.string,
    sent: t.number,
    recalledAt: nullable(t.string),
    removed: t.number,
    alreadyReceived: t.number,
  },
  'AdminSendView',
);
const SendsResponse = t.type({ sends: t.array(SendView) }, 'AdminSendsResponse');

const WRITE_ERRORS = [
  'INVALID_PARAMETERS',
  'INSUFFICIENT_PARAMETERS',
  'BODY_TOO_LARGE',
  'DB_ERROR',
  'UNKNOWN_ERROR',
] as const;

export const LIVEOPS_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminMaintenance',
    needs: 'read',
    method: 'GET',
    path: '/admin/maintenance',
    summary: 'The maintenance window set, if any',
    description: 'The window set (in force now, or still to come), or null.',
    response: MaintenanceResponse,
    errors: ['DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminSetMaintenance',
    needs: 'admin',
    method: 'POST',
    path: '/admin/maintenance',
    summary: 'Close the game for maintenance, now or for a window to come',
    description: `From \`from\` (absent or null: now) until \`until\` (${TIME_FORMS}), every /api request, log-in included, answers 503 with result code 10, the message and maintenanceUntil in the envelope; the players of \`allowPlayerIds\` play through (the team checking the game before it opens). app/version/get and notice/get_all keep answering; so do /admin, /healthz, /readyz and /metrics. It starts and ends by itself, on every process (a store shared by several processes: within MASTER_POLL_SECONDS). A new window replaces the one set. Logged (admin.action).`,
    request: SetMaintenance,
    response: MaintenanceResponse,
    writes: true,
    errors: [...WRITE_ERRORS],
  },
  {
    name: 'adminEndMaintenance',
    needs: 'admin',
    method: 'DELETE',
    path: '/admin/maintenance',
    summary: 'End (or cancel) the maintenance window',
    description:
      'The game opens again at once (on other processes within MASTER_POLL_SECONDS); none set is 107. Logged (admin.action).',
    response: MaintenanceResponse,
    writes: true,
    errors: ['NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminSuspensions',
    needs: 'read',
    method: 'GET',
    path: '/admin/players/:playerId/suspend',
    summary: "A player's suspensions",
    description:
      'Whether the player is suspended now, and every suspension, oldest first (the reason is for the operator; players never see it).',
    pathParameters: { playerId: PosInt },
    response: SuspensionsResponse,
    errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminSuspend',
    needs: 'support',
    method: 'POST',
    path: '/admin/players/:playerId/suspend',
    summary: 'Suspend a player',
    description: `Ends the player's sessions; log-in and every request answer 403 with result code 204 and suspendedUntil (null: indefinite) until \`until\` (${TIME_FORMS}; absent or null: until lifted), when it ends by itself. The reason is kept for the operator, never shown to the player. A suspension in force is replaced. Logged (admin.action).`,
    pathParameters: { playerId: PosInt },
    request: Suspend,
    response: SuspensionsResponse,
    writes: true,
    errors: [...WRITE_ERRORS, 'PLAYER_NOT_FOUND', 'STATE_CONFLICT'],
  },
  {
    name: 'adminUnsuspend',
    needs: 'support',
    method: 'DELETE',
    path: '/admin/players/:playerId/suspend',
    summary: "Lift a player's suspension",
    description:
      'The player may log in again (the sessions the suspension ended stay ended). None in force is 317. Logged (admin.action).',
    pathParameters: { playerId: PosInt },
    response: SuspensionsResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'STATE_CONFLICT', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminNotices',
    needs: 'read',
    method: 'GET',
    path: '/admin/notices',
    summary: 'Every notice, withdrawn ones too',
    description: 'Newest first; inForce says whether players see it now (GET /api/notice/get_all).',
    response: NoticesResponse,
    errors: ['DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminWriteNotice',
    needs: 'support',
    method: 'POST',
    path: '/admin/notices',
    summary: 'Write a notice to every player',
    description: `Shown by GET /api/notice/get_all from \`from\` (absent or null: now) until \`until\` (absent or null: until withdrawn), both ${TIME_FORMS}. kind is maintenance, banner, update, event or info. Logged (admin.action).`,
    request: WriteNotice,
    response: NoticeResponse,
    writes: true,
    errors: [...WRITE_ERRORS],
  },
  {
    name: 'adminWithdrawNotice',
    needs: 'support',
    method: 'POST',
    path: '/admin/notices/:noticeId/withdraw',
    summary: 'Withdraw a notice',
    description:
      'Players no longer see it; it stays in the list. One withdrawn already, or unknown, is 107. Logged (admin.action).',
    pathParameters: { noticeId: PosInt },
    response: NoticeResponse,
    writes: true,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminSends',
    needs: 'read',
    method: 'GET',
    path: '/admin/presents/sends',
    summary: "The operator's present sends",
    description:
      'Every send (POST /admin/presents), newest first, with its id, how many players it reached and, once recalled, how many presents were taken back.',
    response: SendsResponse,
    errors: ['DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminRecallSend',
    needs: 'support',
    method: 'POST',
    path: '/admin/presents/recall',
    summary: 'Take back a send',
    description:
      'Removes the presents of send `sendId` that are still unreceived, from every player it reached, and says how many were removed and how many had been received already (those stay with the players). Recalling again removes nothing more. An unknown send is 107. Logged (admin.action).',
    request: Recall,
    response: RecallResponse,
    writes: true,
    errors: [...WRITE_ERRORS, 'NOT_FOUND', 'STATE_CONFLICT'],
  },
];
