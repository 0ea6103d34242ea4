// A fuzzer driven by the operations table: over 10,000 malformed requests spread
// over every operation. Every answer is the envelope with a 4xx status and a
// specific result code, never a 5xx, and the player's state is byte-identical after each.
import test from 'ava';
import seedrandom from 'seedrandom';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { OPERATIONS } from '../../core/operations/table.js';
import type { AnyOperation } from '../../core/operation.js';
import { asQuery, fieldsOf, managedKind, ownedOf, plausibleRequest, type Owned } from '../_support/requests.js';

const PER_OPERATION = 125;
const rng = seedrandom.alea('fuzz');
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;

const deep = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const BAD_VALUES: ReadonlyArray<() => unknown> = [
  () => 'abc',
  () => -1,
  () => 0,
  () => 1.5,
  () => -0.5,
  () => 1e30,
  () => 2 ** 53 + 2,
  () => '99999999999999999999',
  () => '1e3',
  () => ' 1',
  () => '0x10',
  () => 'NaN',
  () => 'Infinity',
  () => null,
  () => true,
  () => {},
  () => [],
  () => [[1]],
  () => 'x'.repeat(5000),
  () => '\u0000',
  () => deep(200),
  () => -(2 ** 31),
  () => '',
  () => '-5',
  () => ({ valueOf: 1 }),
];
const UNKNOWN_ID = 9_999_999;

interface Case {
  label: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string | Buffer;
  contentType?: string;
}

/** A malformed request for an operation; null when the mutation happened to be valid for its codec. */
const mutate = (op: AnyOperation, owned: Owned, other: Owned): Case | null => {
  const base = plausibleRequest(op, owned);
  const fields = fieldsOf(op);
  const path = `/api${op.path}`;
  const kinds = ['field', 'field', 'field', 'missing', 'body', 'semantic'] as const;
  const kind = pick(kinds);
  const asCase = (req: Record<string, unknown>, label: string): Case | null => {
    // Judge the request as the server will see it: a query's values are the strings asQuery sends.
    const seen = op.method === 'GET' ? Object.fromEntries(new URLSearchParams(asQuery(req))) : req;
    if (kind !== 'semantic' && op.request.decode(seen)._tag === 'Right') return null;
    return op.method === 'GET'
      ? { label, method: 'GET', path: `${path}?${asQuery(req)}` }
      : { label, method: 'POST', path, body: JSON.stringify(req) };
  };
  if (kind === 'missing') {
    const required = fields.filter((f) => f.required);
    if (required.length === 0) return null;
    const f = pick(required);
    const { [f.name]: _gone, ...rest } = base;
    return asCase({ ...rest, unknownExtraField: 'x' }, `missing ${f.name} (+ an extra field)`);
  }
  if (kind === 'body') {
    if (op.method === 'GET') {
      if (fields.length === 0) return { label: 'a repeated parameter', method: 'GET', path: `${path}?x=1&x=2` };
      const f = pick(fields);
      return { label: `repeated ${f.name}`, method: 'GET', path: `${path}?${f.name}=1&${f.name}=2` };
    }
    const bodies: Array<[string, string | Buffer, string]> = [
      ['broken JSON', '{"a":', 'application/json'],
      ['a JSON array', '[1,2]', 'application/json'],
      ['a JSON string', '"s"', 'application/json'],
      ['JSON null', 'null', 'application/json'],
      ['a number', '42', 'application/json'],
      ['trailing garbage', '{} x', 'application/json'],
      ['text/plain', 'a=1', 'text/plain'],
      ['form data', 'a=1&b=2', 'application/x-www-form-urlencoded'],
      ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json'],
      ['deep nesting', `${'['.repeat(3000)}${']'.repeat(3000)}`, 'application/json'],
    ];
    const [label, body, contentType] = pick(bodies);
    return { label, method: 'POST', path, body, contentType };
  }
  if (fields.length === 0) return null;
  const f = pick(fields);
  if (kind === 'semantic') {
    const mk = managedKind(f.name);
    if (mk)
      return asCase(
        {
          ...base,
          [f.name]:
            f.schema['type'] === 'array' ? [other[mk]] : f.schema['type'] === 'string' ? String(other[mk]) : other[mk],
        },
        `another player's ${f.name}`,
      );
    if (/Id$/.test(f.name) && f.name !== 'playerId' && f.schema['type'] === 'integer')
      return asCase({ ...base, [f.name]: UNKNOWN_ID }, `unknown ${f.name}`);
    return null;
  }
  return asCase({ ...base, [f.name]: pick(BAD_VALUES)() }, `bad ${f.name}`);
};

test(`the fuzzer: ${PER_OPERATION} malformed requests for every operation, all 4xx with a specific code and no change`, async (t) => {
  const h = await startHarness({ cfg: { bodyLimitBytes: 32768 } });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  for (const c of [a, b]) {
    for (const [kind, id] of [
      ['character', 1011],
      ['weapon', 103],
      ['townFacility', 1],
      ['roomObject', 1],
      ['gem', 0],
    ] as const)
      await grant(h, c.playerId, kind, id, kind === 'gem' ? 5000 : 1);
    await receiveAllHttp(c);
    await grant(h, c.playerId, 'gold', 0, 1);
  }
  const own = async (c: typeof a) =>
    ownedOf(
      (await c.get('/api/player/get_all')).body,
      (await c.get('/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>,
    );
  const ownedA = await own(a);
  const ownedB = await own(b);
  const byCode = new Map<number, number>();
  let sent = 0;
  let fiveXX = 0;
  const problems: string[] = [];
  for (const op of OPERATIONS) {
    let made = 0;
    let tries = 0;
    while (made < PER_OPERATION && tries++ < PER_OPERATION * 20) {
      const c = mutate(op, ownedA, ownedB);
      if (!c) continue;
      made++;
      const before = JSON.stringify(await h.storage.load(a.playerId));
      const headers: Record<string, string> = { 'X-STAR-SESSION-ID': a.sessionId };
      if (c.contentType) headers['content-type'] = c.contentType;
      const res = await fetch(`${h.url}${c.path}`, {
        method: c.method,
        headers,
        body: typeof c.body === 'string' || c.body === undefined ? c.body : new Uint8Array(c.body),
      });
      sent++;
      const text = await res.text();
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        problems.push(`${op.name} ${c.label}: not JSON: ${text.slice(0, 80)}`);
        continue;
      }
      const code = body['resultCode'] as number;
      byCode.set(code, (byCode.get(code) ?? 0) + 1);
      if (res.status >= 500) fiveXX++;
      const envelope =
        typeof body['resultMessage'] === 'string' &&
        typeof body['serverTime'] === 'string' &&
        typeof body['serverVersion'] === 'number';
      // Unknown present ids are reported in the answer, not refused (GAME-RULES: "reported, not fatal").
      const reported =
        op.name === 'getPlayerPresent' &&
        c.label.startsWith('another player') &&
        code === 0 &&
        (body['notReceived'] as Array<{ reason: string }>).every((x) => x.reason === 'NOT_FOUND') &&
        (body['receivedPresents'] as unknown[]).length === 0;
      if (!reported && (!envelope || res.status < 400 || res.status >= 500 || code === 0 || code === 999)) {
        problems.push(`${op.name} ${c.label} ${c.path.slice(0, 80)}: ${res.status} ${text.slice(0, 100)}`);
      }
      if (JSON.stringify(await h.storage.load(a.playerId)) !== before)
        problems.push(`${op.name} ${c.label}: the state changed`);
    }
    t.true(made >= PER_OPERATION, `${op.name}: only ${made} malformed requests could be made`);
  }
  t.log(
    `sent ${sent} malformed requests; 5xx: ${fiveXX}; by result code: ${[...byCode]
      .sort((x, y) => x[0] - y[0])
      .map(([k, v]) => `${k}×${v}`)
      .join(' ')}`,
  );
  t.true(sent >= 10_000, `sent ${sent}`);
  t.is(fiveXX, 0);
  t.deepEqual(problems.slice(0, 30), []);
});
