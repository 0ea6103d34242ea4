// The typed client driving a whole session against the in-process server: sign-up,
// log-in, the whole state, the welcome presents, a ten-draw and a quest. Every read
// is typed by the operations' codecs (no casts), and every answer is checked against
// its codec by the client (checkAnswers) as well as by the server.
import test from 'ava';
import type { AnswerOf, CallResult, OperationName, RequestOf } from '../../client/index.js';
import { PARTY_COUNT, PARTY_SLOTS } from '../../core/state/social.js';
import { master } from '../_support/core.js';
import { clientOf, newUuid, startHarness } from '../_support/http.js';

const value = <N extends OperationName>(r: CallResult<N>): AnswerOf<N> => {
  if (!r.ok) throw new Error(`expected success, got ${r.resultCode} (${r.resultMessage})`);
  return r.value;
};

/** The standard gacha (fixtures/gachas.json), open at the harness's time, and a quest open then. */
const GACHA = 2;
const QUEST = 1001;

test('the typed client plays a session: sign-up, log-in, get_all, presents, a ten-draw, a quest', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const m = master();
  // What went on the wire, to see the encodings (GET query lists, "id:n" strings).
  const sent: Array<{ url: string; body: string | undefined }> = [];
  const client = clientOf(h, {
    fetch: (input, init) => {
      sent.push({ url: String(input), body: typeof init?.body === 'string' ? init.body : undefined });
      return fetch(input, init);
    },
  });
  const uuid = newUuid();

  // Sign-up and log-in: the client keeps the credentials and the session id.
  const signedUp = value(await client.signupPlayer({ uuid, platform: 1, name: 'Aki' }));
  t.deepEqual(client.credentials, { uuid, accessToken: signedUp.accessToken, playerId: signedUp.playerId });
  const loggedIn = value(
    await client.loginPlayer({ uuid, accessToken: signedUp.accessToken, platform: 1, appVersion: '1.0.0' }),
  );
  t.is(loggedIn.playerId, signedUp.playerId);
  t.is(client.sessionId, loggedIn.sessionId);

  // The whole state.
  const all = value(await client.getAllPlayer());
  t.is(all.player.playerId, signedUp.playerId);
  t.is(all.player.name, 'Aki');
  t.deepEqual(all.managedCharacters, []);
  const startGems = all.player.gem;

  // The welcome presents, received all at once (ids comma-joined in the query).
  const box = value(await client.getAllPlayerPresent()).presents;
  t.true(box.length > 0, 'the welcome presents');
  t.is(all.presentCount, box.length);
  const received = value(
    await client.getPlayerPresent({ managedPresentId: box.map((p) => p.managedPresentId), stepCode: 0 }),
  );
  t.deepEqual(
    received.receivedPresents.map((p) => p.managedPresentId).sort(),
    box.map((p) => p.managedPresentId).sort(),
  );
  t.deepEqual(received.notReceived, []);
  t.true(
    sent.some((x) =>
      x.url.endsWith(
        `/api/player/present/get?managedPresentId=${box.map((p) => p.managedPresentId).join(',')}&stepCode=0`,
      ),
    ),
    'ids comma-joined in the query',
  );
  t.deepEqual(received.presents, [], 'the box is empty');
  const welcomeGems = box.filter((p) => p.kind === 'gem').reduce((a, p) => a + p.amount, 0);
  const gems = received.player?.gem;
  t.is(gems, startGems + welcomeGems, 'the answer carries the player it changed');

  // A ten-draw: the player's first of this gacha is discounted.
  const gacha = m.gacha.get(GACHA);
  if (!gacha) return t.fail(`fixtures: no gacha ${GACHA}`);
  const draw = value(await client.drawPlayerGacha({ gachaId: GACHA, drawType: 3 }));
  t.is(draw.gachaResults.length, 10);
  t.false(draw.pending);
  t.is(draw.player?.gem, startGems + welcomeGems - (gacha.cost.firstTenGem ?? gacha.cost.tenGem));
  const owned = new Set(draw.managedCharacters.map((c) => c.characterId));
  for (const r of draw.gachaResults) t.true(owned.has(r.characterId), `drew ${r.characterId} and owns it`);
  t.true(draw.managedCharacters.every((c) => c.level >= 1 && c.levelLimit >= c.level));

  // A quest: a party with the first character drawn, ordered, then cleared.
  const first = draw.managedCharacters[0];
  if (!first) return t.fail('the draw gave no character');
  const slots = (id: number | null) =>
    Array.from({ length: PARTY_SLOTS }, (_, i) => ({ managedCharacterId: i === 0 ? id : null, managedWeaponId: null }));
  const parties: NonNullable<RequestOf<'setAllPlayerBattleParty'>['managedBattleParties']> = Array.from(
    { length: PARTY_COUNT },
    (_, i) => ({ managedBattlePartyId: i + 1, slots: slots(i === 0 ? first.managedCharacterId : null) }),
  );
  const set = value(await client.setAllPlayerBattleParty({ managedBattleParties: parties }));
  t.is(set.managedBattleParties[0]?.slots[0]?.managedCharacterId, first.managedCharacterId);
  // As the original's clients send it: -1 for no support character.
  const order = value(
    await client.orderPlayerQuestLog({
      questId: QUEST,
      managedBattlePartyId: 1,
      type: 1,
      supportCharacterId: -1,
      questData: 'start',
    }),
  );
  t.is(order.questId, QUEST);
  t.is(order.activeQuest?.orderReceiveId, order.orderReceiveId);
  // state 2 is a clear; the battle lists are typed as entries and go on the wire as the original's "id:n,id:n" strings.
  const done = value(
    await client.completePlayerQuestLog({
      orderReceiveId: order.orderReceiveId,
      state: 2,
      clearRank: 3,
      skillExps: [
        { id: 1, amount: 3 },
        { id: 2, amount: 1 },
      ],
      dropItems: [],
      killedEnemies: [{ id: 10, amount: 4 }],
      weaponSkillExps: [],
    }),
  );
  const wire = sent.find((x) => x.url.endsWith('/api/player/quest_log/complete'))?.body ?? '';
  const wireBody: unknown = JSON.parse(wire);
  t.like(wireBody, { state: 2, skillExps: '1:3,2:1', dropItems: '', killedEnemies: '10:4', weaponSkillExps: '' });
  t.true(done.cleared);
  t.is(done.questId, QUEST);
  t.is(done.activeQuest, null, 'the quest is over');
  const log = done.questLogs?.find((q) => q.questId === QUEST);
  t.is(log?.clears, 1);
  t.deepEqual(log?.skillUse?.skills, [3, 1], 'the skill use counts, read from "1:3,2:1"');

  // What the answers showed is what the whole state shows.
  const after = value(await client.getAllPlayer());
  t.is(done.player?.gem ?? draw.player?.gem, after.player.gem);
  t.deepEqual(after.questLogs, done.questLogs);
  t.is(after.activeQuest, null);
});

test('a new log-in replaces the kept session; a move gives this device new credentials and ends the session', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const device = clientOf(h);
  const uuid = newUuid();
  const su = value(await device.signupPlayer({ uuid, platform: 1 }));
  const first = value(await device.loginPlayer({ uuid, accessToken: su.accessToken }));
  const second = value(await device.loginPlayer({ uuid, accessToken: su.accessToken }));
  t.not(first.sessionId, second.sessionId);
  t.is(device.sessionId, second.sessionId);
  const code = value(await device.getPlayerMove({ password: '1234abcd' }));

  const other = clientOf(h);
  const newUuidOfDevice = newUuid();
  const moved = value(
    await other.setPlayerMove({
      moveCode: code.moveCode,
      movePassword: '1234abcd',
      uuid: newUuidOfDevice,
      platform: 2,
    }),
  );
  t.deepEqual(other.credentials, { uuid: newUuidOfDevice, accessToken: moved.accessToken, playerId: su.playerId });
  t.is(other.sessionId, undefined);
  const creds = other.credentials;
  if (!creds) return t.fail('no credentials after the move');
  value(await other.loginPlayer({ uuid: creds.uuid, accessToken: creds.accessToken }));
  t.is(value(await other.getAllPlayer()).player.playerId, su.playerId);
  // The old device's session ended with the move.
  const stale = await device.getAllPlayer();
  t.false(stale.ok);
  if (!stale.ok) t.deepEqual([stale.status, stale.resultCode], [401, 203]);
});
