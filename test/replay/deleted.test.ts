// The replay across a deletion (docs/privacy.md, docs/replay.md): the deleted player's
// entries stay in the log with their personal fields emptied, so a player who never met
// it still replays byte for byte; a friend of it (whose states held its name) and the
// player itself are reported at their first entry that no longer replays, never thrown on.
import test, { type ExecutionContext } from 'ava';
import { replayPlayer } from '../../adapters/service/replay.js';
import { master } from '../_support/core.js';
import { receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
const must = async (t: ExecutionContext, c: Client, path: string, body: unknown): Promise<void> => {
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], 0, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
};

test('after a deletion: a stranger replays byte for byte; its friend and itself are reported at an entry, not thrown on', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const [a, b, c] = [await signupLogin(h), await signupLogin(h), await signupLogin(h)] as [Client, Client, Client];
  for (const x of [a, b, c]) t.is((await receiveAllHttp(x)).body['resultCode'], 0);
  await must(t, a, '/api/player/friend/propose', { playerId: b.playerId });
  await must(t, b, '/api/player/friend/accept', { playerId: a.playerId });
  await must(t, c, '/api/player/gacha/draw', { gachaId: 3, drawType: 1, stepCode: 0, reDraw: false });
  await must(t, a, '/api/player/delete', { accessToken: a.accessToken });
  const log = await h.storage.readLog();
  const masterFor = () => master();
  const stranger = replayPlayer(log, masterFor, c.playerId, await h.storage.load(c.playerId));
  t.like(stranger, { identical: true, firstDifference: null });
  const friend = replayPlayer(log, masterFor, b.playerId, await h.storage.load(b.playerId));
  t.false(friend.identical);
  const propose = log.find((e) => e.kind === 'op' && e.op === 'proposePlayerFriend');
  t.like(friend.firstDifference, { seq: propose?.seq, playerId: b.playerId }, "where its state first held A's name");
  const itself = replayPlayer(log, masterFor, a.playerId, await h.storage.load(a.playerId));
  t.false(itself.identical);
  t.is(itself.firstDifference?.op, 'signupPlayer', 'its sign-up no longer makes the player it made');
});
