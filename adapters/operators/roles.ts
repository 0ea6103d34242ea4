// Who may do what under /admin: each endpoint of the admin table names the permission
// it needs, each role the permissions it holds. One table: the router checks it on
// every request, the console hides what a role cannot do, the tests walk it.

export const ROLES = ['viewer', 'support', 'designer', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * anyone: no credentials at all (signing in); read: every read; support: presents to players, sessions, suspension, recall, notices;
 * design: the game data (publish, preview, schedule); admin: maintenance, players' data
 * moved in, and operators.
 */
export const PERMISSIONS = ['anyone', 'read', 'support', 'design', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const HELD: Readonly<Record<Role, ReadonlyArray<Permission>>> = {
  viewer: ['read'],
  support: ['read', 'support'],
  designer: ['read', 'design'],
  admin: ['read', 'support', 'design', 'admin'],
};

export const allows = (role: Role, needs: Permission): boolean => needs === 'anyone' || HELD[role].includes(needs);

/** The roles that may, for a refusal to say. */
export const rolesFor = (needs: Permission): Role[] => ROLES.filter((r) => allows(r, needs));

export const isRole = (s: string): s is Role => (ROLES as ReadonlyArray<string>).includes(s);
