// Operators for tests: one of each role made through the admin API with ADMIN_TOKEN,
// signed in, each with its bearer token.
import type { Role } from '../../adapters/operators/roles.js';
import { ROLES } from '../../adapters/operators/roles.js';
import { ADMIN, type Harness } from './http.js';

export const PASSWORD = 'correct horse battery';
export const adminAuth = { Authorization: `Bearer ${ADMIN}` };

export const makeOperator = async (h: Harness, name: string, role: Role): Promise<void> => {
  const r = await h.call('POST', '/admin/operators', { name, role, password: PASSWORD }, adminAuth);
  if (r.body['resultCode'] !== 0) throw new Error(`operator ${name}: ${JSON.stringify(r.body)}`);
};

export const signIn = async (h: Harness, name: string, password = PASSWORD) =>
  h.call('POST', '/admin/session', { name, password });

/** One signed-in operator of each role (made the first time; `only`: that role's signed in again): its bearer header. */
export const operatorsOfEachRole = async (h: Harness, only?: Role): Promise<Record<Role, Record<string, string>>> => {
  const out = {} as Record<Role, Record<string, string>>;
  for (const role of only ? [only] : ROLES) {
    if (!only) await makeOperator(h, `op-${role}`, role);
    const s = await signIn(h, `op-${role}`);
    out[role] = { Authorization: `Bearer ${s.body['token'] as string}` };
  }
  return out;
};
