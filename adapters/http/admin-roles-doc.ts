// The role × endpoint table of docs/operators.md, written from the admin table (what
// the router checks and test/http/admin-roles.test.ts walks).
import { allows, ROLES } from '../operators/roles.js';
import { ADMIN_OPERATIONS } from './admin-operations.js';

export const roleTable = (): string => {
  const head = `| endpoint | needs | ${ROLES.join(' | ')} |`;
  const rule = `|---|---|${ROLES.map(() => '---').join('|')}|`;
  const rows = ADMIN_OPERATIONS.map(
    (op) =>
      `| \`${op.method} ${op.path}\` | ${op.needs} | ${ROLES.map((r) => (allows(r, op.needs) ? 'yes' : '—')).join(' | ')} |`,
  );
  return [head, rule, ...rows].join('\n');
};
