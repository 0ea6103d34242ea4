// Durability over a real crash: a server process is SIGKILLed in the middle of a
// stream of writes and restarted; every acknowledged write is there, nothing is
// corrupt, and the unacknowledged ones are applied whole or not at all.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from '../_support/child.js';

const ADMIN = 'crash-admin';
const post = async (url: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return (await r.json()) as Record<string, unknown>;
};

test('SIGKILL during acknowledged writes loses none of them, three times over', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-crash-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATA_DIR: dir, ADMIN_TOKEN: ADMIN };
  let server = await startChild(env);
  const players: Array<{ uuid: string; token: string; session: string; id: number; acked: Set<number>; tried: Set<number>; next: number }> = [];
  for (let i = 0; i < 6; i++) {
    const uuid = `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const su = await post(server.url, '/api/player/signup', { uuid, platform: 1 });
    const li = await post(server.url, '/api/player/login', { uuid, accessToken: su['accessToken'] });
    players.push({ uuid, token: su['accessToken'] as string, session: li['sessionId'] as string, id: su['playerId'] as number, acked: new Set(), tried: new Set(), next: 1 });
  }
  let totalAcked = 0;
  for (let round = 0; round < 3; round++) {
    let stop = false;
    // Each player's writes run back to back: tip ids 1, 2, 3, … each recorded once acknowledged.
    const writers = players.map(async (p) => {
      while (!stop) {
        const tipId = p.next++;
        p.tried.add(tipId);
        try {
          const r = await post(server.url, '/api/player/tutorial/tip/add', { tipId }, { 'X-STAR-SESSION-ID': p.session });
          if (r['resultCode'] === 0) { p.acked.add(tipId); totalAcked++; }
        } catch {
          return; // the server died mid-request: not acknowledged
        }
      }
    });
    await new Promise((r) => setTimeout(r, 400 + round * 200));
    await server.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    server = await startChild(env);
    for (const p of players) {
      const r = await fetch(`${server.url}/admin/players/${p.id}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
      const state = ((await r.json()) as { state: { tutorial: { tips: number[] }; version: number } }).state;
      const tips = new Set(state.tutorial.tips);
      const lost = [...p.acked].filter((x) => !tips.has(x));
      t.deepEqual(lost, [], `player ${p.id} round ${round}: acknowledged tips lost`);
      // Only writes that were sent are there (an unacknowledged one whole or not at all).
      t.deepEqual([...tips].filter((x) => !p.tried.has(x)), [], 'nothing that was never sent');
      t.true(tips.size - p.acked.size <= round + 1, 'at most the in-flight write of each crash beyond the acknowledged');
      t.is(state.version, tips.size + 1, 'one version per applied write (plus the log-in): nothing half-applied');
    }
    // The sessions survived too.
    const again = await fetch(`${server.url}/api/player/get_all`, { headers: { 'X-STAR-SESSION-ID': players[0]!.session } });
    t.is(((await again.json()) as { resultCode: number }).resultCode, 0);
  }
  t.true(totalAcked > 50, `acknowledged writes: ${totalAcked}`);
  t.log(`acknowledged writes across 3 crashes: ${totalAcked}`);
  const code = await server.kill('SIGTERM');
  t.is(code, 0, 'SIGTERM stops cleanly');
});
