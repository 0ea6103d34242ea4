import test, { type ExecutionContext } from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
type Char = {
  managedCharacterId: number;
  characterId: number;
  level: number;
  limitBreak: number;
  evolved: boolean;
  view: number;
};
type Weapon = { managedWeaponId: number; weaponId: number; level: number };

const MINUTE = 60_000;

/** get_all without the clock line, to compare before and after a failed request. */
const snapshot = async (c: Client) => {
  const r = await c.get('/api/player/get_all');
  const { serverTime: _time, ...rest } = r.body;
  return rest;
};

const expectError = async (
  t: ExecutionContext,
  c: Client,
  path: string,
  body: unknown,
  resultCode: number,
  status: number,
) => {
  const before = await snapshot(c);
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], resultCode, `${path} → ${JSON.stringify(r.body)}`);
  t.is(r.status, status);
  t.deepEqual(await snapshot(c), before, 'a failed request changes nothing');
};

test('a fresh character goes from level 1 to 100, receives, upgrades and evolves its own weapon, then trains', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const give: Array<[string, number, number]> = [
    ['character', 1011, 1],
    ['gold', 0, 10_000_000],
    ['item', 2003, 200], // Large Flame Candy: 2000 exp, 3000 for a Flame character
    ['item', 101011, 4], // the character's own limit-break item (★5: 1 per limit break)
    ['item', 4001, 22],
    ['item', 4100, 3], // evolution: 20 Fighter Sigils + 3 Radiant Seeds; the weapon: 2 sigils
    ['item', 10003, 60],
    ['item', 10601, 3], // weapon exp and evolution
  ];
  for (const [kind, id, amount] of give) await grant(h, c.playerId, kind, id, amount);
  const received = await receiveAllHttp(c);
  t.is(received.body['resultCode'], 0);

  const all = await c.get('/api/player/get_all');
  const char = (all.body['managedCharacters'] as Char[]).find((x) => x.characterId === 1011);
  if (!char) return t.fail('the character was not received');
  const id = char.managedCharacterId;
  t.is(char.level, 1);

  const upgrade = async () => {
    const r = await c.post('/api/player/character/upgrade', {
      managedCharacterId: id,
      items: [{ itemId: 2003, amount: 100 }],
    });
    t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
    t.truthy(r.body['player'], 'coins changed');
    t.truthy(r.body['itemSummary'], 'items changed');
    return (r.body['managedCharacter'] as Char).level;
  };

  t.is(await upgrade(), 60);
  await expectError(
    t,
    c,
    '/api/player/character/upgrade',
    { managedCharacterId: id, items: [{ itemId: 2003, amount: 1 }] },
    294,
    409,
  );
  await expectError(t, c, '/api/player/character/evolution', { managedCharacterId: id }, 317, 409);
  for (let lb = 1; lb <= 4; lb++) {
    const r = await c.post('/api/player/character/limitBreak', { managedCharacterId: id });
    t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
    t.is((r.body['managedCharacter'] as Char).limitBreak, lb);
    t.is(await upgrade(), 60 + 5 * lb);
  }
  await expectError(t, c, '/api/player/character/limitBreak', { managedCharacterId: id }, 308, 409);
  await expectError(t, c, '/api/player/weapon/receive', { managedCharacterId: id }, 317, 409);

  const evo = await c.post('/api/player/character/evolution', { managedCharacterId: id });
  t.is(evo.body['resultCode'], 0, JSON.stringify(evo.body));
  t.like(evo.body['managedCharacter'], { evolved: true, view: 1 });
  t.is(await upgrade(), 100);

  // Its own weapon, once.
  const rec = await c.post('/api/player/weapon/receive', { managedCharacterId: id });
  t.is(rec.body['resultCode'], 0, JSON.stringify(rec.body));
  const w = rec.body['managedWeapon'] as Weapon;
  t.is(w.weaponId, 11011);
  t.truthy(rec.body['managedWeapons']);
  await expectError(t, c, '/api/player/weapon/receive', { managedCharacterId: id }, 317, 409);

  await expectError(t, c, '/api/player/weapon/evolution', { managedWeaponId: w.managedWeaponId }, 317, 409);
  const up1 = await c.post('/api/player/weapon/upgrade', {
    managedWeaponId: w.managedWeaponId,
    items: [{ itemId: 10003, amount: 30 }],
  });
  t.is(up1.body['resultCode'], 0, JSON.stringify(up1.body));
  t.is((up1.body['managedWeapon'] as Weapon).level, 20);
  await expectError(
    t,
    c,
    '/api/player/weapon/upgrade',
    { managedWeaponId: w.managedWeaponId, items: [{ itemId: 10003, amount: 1 }] },
    293,
    409,
  );
  const wevo = await c.post('/api/player/weapon/evolution', { managedWeaponId: w.managedWeaponId });
  t.is(wevo.body['resultCode'], 0, JSON.stringify(wevo.body));
  t.is((wevo.body['managedWeapon'] as Weapon).weaponId, 21011);
  const up2 = await c.post('/api/player/weapon/upgrade', {
    managedWeaponId: w.managedWeaponId,
    items: [{ itemId: 10003, amount: 30 }],
  });
  t.is(up2.body['resultCode'], 0, JSON.stringify(up2.body));
  t.is((up2.body['managedWeapon'] as Weapon).level, 40);

  // Training: the Fighters' drill, 90 minutes.
  const order = await c.post('/api/player/training/orders', { slotId: 1, trainingId: 3, managedCharacterIds: [id] });
  t.is(order.body['resultCode'], 0, JSON.stringify(order.body));
  t.truthy(order.body['managedTrainings']);
  const list = await c.post('/api/player/training/get_list');
  t.like((list.body['slots'] as unknown[])[0], { slotId: 1, open: true, ongoing: true });
  // Sessions expire after an idle hour: the client keeps using it while the clock moves.
  h.clock.now += 50 * MINUTE;
  t.is((await c.post('/api/player/training/get_list')).body['resultCode'], 0);
  h.clock.now += 39 * MINUTE;
  await expectError(t, c, '/api/player/training/completes', { slotId: 1 }, 316, 409);
  h.clock.now += MINUTE;
  const done = await c.post('/api/player/training/completes', { slotId: 1 });
  t.is(done.body['resultCode'], 0, JSON.stringify(done.body));
  t.deepEqual(done.body['characters'], [{ managedCharacterId: id, exp: 0, level: 100 }], 'exp past level 100 is lost');
  const after = await c.get('/api/player/get_all');
  t.deepEqual(after.body['managedTrainings'], []);
  const items = after.body['itemSummary'] as Array<{ itemId: number; amount: number }>;
  t.is(items.find((x) => x.itemId === 10402)?.amount, 1);
  t.is(items.find((x) => x.itemId === 4001)?.amount, 1);
});

test('HTTP: item sale, trade and weapon storage answer their result codes and statuses', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await grant(h, c.playerId, 'item', 10501, 25);
  await grant(h, c.playerId, 'item', 2001, 10);
  await receiveAllHttp(c);

  const sale = await c.post('/api/player/item/sale', { itemId: 2001, amount: 4 });
  t.is(sale.body['resultCode'], 0);
  t.is(sale.body['gold'], 80);
  await expectError(t, c, '/api/player/item/sale', { itemId: 2001, amount: 0 }, 102, 400);
  await expectError(t, c, '/api/player/item/sale', { itemId: 424242, amount: 1 }, 107, 404);
  await expectError(t, c, '/api/player/item/sale', { itemId: 2001, amount: 7 }, 442, 409);

  const recipes = await c.get('/api/player/item/trade/recipe/get_all');
  t.is(recipes.body['resultCode'], 0);
  t.true((recipes.body['recipes'] as Array<{ recipeId: number }>).some((x) => x.recipeId === 4));
  const trade = await c.post('/api/player/item/trade/trade', { recipeId: 4, count: 2 });
  t.is(trade.body['resultCode'], 0, JSON.stringify(trade.body));
  await expectError(t, c, '/api/player/item/trade/trade', { recipeId: 5, count: 1 }, 463, 403);
  await expectError(t, c, '/api/player/item/trade/trade', { recipeId: 4, count: 1 }, 442, 409);

  const add = await c.post('/api/player/weapon/limit/add', {});
  t.is(add.body['resultCode'], 0);
  t.is(add.body['weaponLimit'], 105);
  t.like(add.body['player'], { weaponLimit: 105 });
  await expectError(t, c, '/api/player/character/set_view', { managedCharacterId: 999_999, view: 0 }, 107, 404);
});

test('HTTP: views, support parties, weapons made and sold, abilities and a cancelled training', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const give: Array<[string, number, number]> = [
    ['character', 1011, 1],
    ['character', 1013, 1],
    ['item', 5001, 5],
    ['item', 10101, 1],
    ['item', 10301, 30],
    ['item', 10201, 1],
  ];
  for (const [kind, id, amount] of give) await grant(h, c.playerId, kind, id, amount);
  await receiveAllHttp(c);
  const all = await c.get('/api/player/get_all');
  const owned = all.body['managedCharacters'] as Char[];
  const a = owned.find((x) => x.characterId === 1011)?.managedCharacterId;
  const b = owned.find((x) => x.characterId === 1013)?.managedCharacterId;
  const post = async (path: string, body: unknown) => {
    const r = await c.post(path, body);
    t.is(r.body['resultCode'], 0, `${path} → ${JSON.stringify(r.body)}`);
    t.is(r.status, 200);
    return r.body;
  };

  t.is(
    ((await post('/api/player/character/set_shown', { managedCharacterIds: [a, b] }))['managedCharacters'] as Char[])
      .length,
    2,
  );
  await expectError(t, c, '/api/player/character/set_view', { managedCharacterId: a, view: 1 }, 317, 409);
  await post('/api/player/character/set_view', { managedCharacterId: a, view: 0 });
  t.is((await post('/api/player/character/reset_all_view', {}))['changed'], 0);
  await post('/api/player/character/support/set_all', {
    supportParties: [{ name: 'Friends', managedCharacterIds: [a, b] }],
  });
  t.deepEqual(
    (await post('/api/player/character/support/set_name', { supportPartyNo: 1, name: 'Helpers' }))['supportParties'],
    [{ supportPartyNo: 1, name: 'Helpers', managedCharacterIds: [a, b] }],
  );
  await expectError(
    t,
    c,
    '/api/player/character/support/set_all',
    { supportParties: [{ name: 'Big', managedCharacterIds: [a, b, a, b] }] },
    296,
    400,
  );
  await expectError(t, c, '/api/player/character/support/set_name', { supportPartyNo: 2, name: 'None' }, 107, 404);

  const made = await post('/api/player/weapon/make', { weaponId: 103 });
  const w = made['managedWeapon'] as Weapon;
  await expectError(t, c, '/api/player/weapon/make', { weaponId: 103 }, 442, 409);
  t.is((await post('/api/player/weapon/sale', { managedWeaponIds: [w.managedWeaponId] }))['gold'], 300);
  await expectError(t, c, '/api/player/weapon/sale', { managedWeaponIds: [w.managedWeaponId] }, 107, 404);

  await post('/api/player/ability/release', { managedCharacterId: a, itemId: 10101 });
  await expectError(t, c, '/api/player/ability/equip', { managedCharacterId: a, slotNo: 1, itemId: 10201 }, 317, 409);
  await post('/api/player/ability/release_slot', { managedCharacterId: a, slotNo: 1 });
  await post('/api/player/ability/equip', { managedCharacterId: a, slotNo: 1, itemId: 10201 });
  const up = await post('/api/player/ability/upgrade_sphere', {
    managedCharacterId: a,
    slotNo: 1,
    items: [{ itemId: 10301, amount: 10 }],
  });
  t.deepEqual((up['managedAbilityTrees'] as Array<{ slots: unknown[] }>)[0]?.slots, [
    { slotNo: 1, sphere: { itemId: 10201, level: 2, exp: 100 } },
  ]);

  await post('/api/player/training/orders', { slotId: 1, trainingId: 1, managedCharacterIds: [b] });
  await expectError(
    t,
    c,
    '/api/player/training/orders',
    { slotId: 1, trainingId: 1, managedCharacterIds: [a] },
    317,
    409,
  );
  await post('/api/player/training/cancel', { slotId: 1 });
  await expectError(t, c, '/api/player/training/cancel', { slotId: 1 }, 317, 409);
});
