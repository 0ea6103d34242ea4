// What the erasure tests share: a player with everything personal a store may keep (a
// name, a device uuid and the one it moved from, a friend code, a friend who kept an
// answer naming it), its deletion over HTTP, and the searches of a data directory's
// files and of a PostgreSQL schema's rows for what identified it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ADMIN, newUuid, type Harness } from './http.js';
import { sql } from './pg.js';

const admin = { Authorization: `Bearer ${ADMIN}` };

/** A player signed up with a name and logged in, with its session's calls (an Idempotency-Key when given). */
export const signedUp = async (h: Harness, name: string, uuid = newUuid()) => {
  const su = await h.call('POST', '/api/player/signup', { uuid, platform: 1, name });
  if (su.body['resultCode'] !== 0) throw new Error(`sign-up: ${JSON.stringify(su.body)}`);
  return loggedIn(h, uuid, su.body['accessToken'] as string, su.body['playerId'] as number);
};

export const loggedIn = async (h: Harness, uuid: string, accessToken: string, playerId: number) => {
  const li = await h.call('POST', '/api/player/login', { uuid, accessToken, platform: 1 });
  if (li.body['resultCode'] !== 0) throw new Error(`log-in: ${JSON.stringify(li.body)}`);
  const sessionId = li.body['sessionId'] as string;
  const headers = (key?: string): Record<string, string> => ({
    'X-STAR-SESSION-ID': sessionId,
    ...(key ? { 'Idempotency-Key': key } : {}),
  });
  return {
    uuid,
    accessToken,
    playerId,
    get: (path: string) => h.call('GET', path, undefined, headers()),
    post: (path: string, body: unknown = {}, key?: string) => h.call('POST', path, body, headers(key)),
  };
};
export type Player = Awaited<ReturnType<typeof signedUp>>;

/** What identifies the player, as it may have been stored: its name, uuids, friend code and token's hash. */
export interface Needles {
  readonly name: string;
  readonly uuids: ReadonlyArray<string>;
  readonly myCode: string;
  readonly tokenHash: string;
}

/**
 * A player with a history worth purging on `h` (and, for a second process, its friend's
 * calls on `other`): signed up with `name`, moved to a second device (the first uuid is
 * kept as the one it moved from), friends with a player who accepted with an
 * Idempotency-Key (that answer lists it by name), asked by another. Answers the player
 * on its new device, its friends and what identifies it.
 */
export const historyOf = async (h: Harness, name: string, other: Harness = h) => {
  const first = await signedUp(h, name);
  const code = await first.post('/api/player/move/get', { password: 'secret-1' }, 'move-get-1');
  const moveCode = code.body['moveCode'] as string;
  const uuid = newUuid();
  const moved = await h.call(
    'POST',
    '/api/player/move/set',
    { moveCode, movePassword: 'secret-1', uuid, platform: 2 },
    { 'Idempotency-Key': 'move-set-1' },
  );
  if (moved.body['resultCode'] !== 0) throw new Error(`move: ${JSON.stringify(moved.body)}`);
  const a = await loggedIn(h, uuid, moved.body['accessToken'] as string, first.playerId);
  const b = await signedUp(other, 'Bo');
  const c = await signedUp(other, 'Cy');
  const proposed = await a.post('/api/player/friend/propose', { playerId: b.playerId }, 'propose-1');
  if (proposed.body['resultCode'] !== 0) throw new Error(`propose: ${JSON.stringify(proposed.body)}`);
  const accepted = await b.post('/api/player/friend/accept', { playerId: a.playerId }, 'accept-1');
  if (!JSON.stringify(accepted.body).includes(name)) throw new Error("the friend's answer does not name the player");
  await c.post('/api/player/friend/propose', { playerId: a.playerId }, 'propose-2');
  // A draw and a party's name: an entry with a request of numbers, one with the player's own text.
  await a.post('/api/player/battle_party/set_name', { managedBattlePartyId: 1, name: `${name.slice(0, 6)}s` }, 'p-1');
  const state = (await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin)).body['state'] as {
    myCode: string;
    account: { tokenHash: string };
  };
  const needles: Needles = {
    name,
    uuids: [first.uuid, uuid],
    myCode: state.myCode,
    tokenHash: state.account.tokenHash,
  };
  return { a, b, c, needles };
};

/** The player's deletion over HTTP; throws unless it is done. */
export const deleted = async (a: Player): Promise<void> => {
  const r = await a.post('/api/player/delete', { accessToken: a.accessToken }, 'delete-1');
  if (r.body['resultCode'] !== 0) throw new Error(`delete: ${JSON.stringify(r.body)}`);
};

const texts = (n: Needles): string[] => [n.name, ...n.uuids, n.myCode, n.tokenHash];

/** Where each needle is found: `place` → the needles it holds. */
export type Hits = Record<string, string[]>;

const hitsIn = (text: string, n: Needles): string[] => texts(n).filter((x) => text.includes(x));

/** Every file of a data directory (archives decompressed) searched for the needles: the files and bytes read, and where each was found. */
export const searchDirectory = (dir: string, n: Needles): { files: number; bytes: number; hits: Hits } => {
  const hits: Hits = {};
  let files = 0;
  let bytes = 0;
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) {
        walk(p);
        continue;
      }
      const raw = readFileSync(p);
      const plain = p.endsWith('.gz') ? gunzipSync(raw) : raw;
      files++;
      bytes += plain.length;
      const found = hitsIn(plain.toString('utf8'), n);
      if (found.length > 0) hits[relative(dir, p)] = found;
    }
  };
  walk(dir);
  return { files, bytes, hits };
};

/** Every row of every table of a PostgreSQL schema, as text, searched for the needles: the tables and rows read, and where each was found. */
export const searchSchema = async (
  schema: string,
  n: Needles,
): Promise<{ tables: number; rows: number; hits: Hits }> => {
  const tables = await sql<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`,
    [schema],
  );
  const hits: Hits = {};
  let rows = 0;
  for (const { table_name } of tables) {
    const all = await sql<{ row: string }>(`SELECT t::text AS row FROM ${schema}.${table_name} t`);
    rows += all.length;
    all.forEach((r, i) => {
      const found = hitsIn(r.row, n);
      if (found.length > 0) hits[`${table_name} row ${i + 1}`] = [...new Set([...(hits[table_name] ?? []), ...found])];
    });
  }
  return { tables: tables.length, rows, hits };
};
