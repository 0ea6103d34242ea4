// The OpenAPI document as a client developer meets it: components for the views,
// required bodies, enums with meanings, security schemes, the request hash and
// Idempotency-Key, every error answer, the admin API; @redocly/cli's recommended
// rules at 0 errors; and openapi-typescript's client types with no `unknown`.
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApi, openApiDocument } from '../../adapters/http/openapi.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { COLLECTION_CODECS } from '../../core/views/codecs.js';
import { accessOf } from '../../core/operation.js';

type Schema = Record<string, unknown>;
type Operation = Schema & {
  parameters?: Schema[];
  requestBody?: Schema;
  responses: Record<string, Schema>;
  security: Schema[];
};

const built = buildOpenApi(7, '+09:00');
const doc = built.document as Schema & {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, Schema>;
    parameters: Record<string, Schema>;
    responses: Record<string, Schema>;
    securitySchemes: Record<string, Schema>;
  };
  servers: Schema[];
  tags: Array<{ name: string; description: string }>;
  info: Schema;
};
const op = (method: string, path: string): Operation => {
  const o = doc.paths[path]?.[method];
  if (!o) throw new Error(`no ${method} ${path}`);
  return o;
};
/** A $ref's target, or the schema itself. */
const deref = (s: Schema): Schema => {
  const r = s['$ref'];
  if (typeof r !== 'string') return s;
  const [, , kind, name] = r.split('/');
  const target = (doc.components as unknown as Record<string, Record<string, Schema>>)[kind ?? '']?.[name ?? ''];
  if (!target) throw new Error(`dangling ${r}`);
  return deref(target);
};
const jsonSchemaOf = (content: Schema): Schema =>
  ((content['content'] as Record<string, Schema>)['application/json'] as Schema)['schema'] as Schema;
const refsIn = (u: unknown, out = new Set<string>()): Set<string> => {
  if (Array.isArray(u)) for (const x of u) refsIn(x, out);
  else if (u && typeof u === 'object') {
    for (const [k, v] of Object.entries(u)) {
      if (k === '$ref' && typeof v === 'string') out.add(v);
      else refsIn(v, out);
    }
  }
  return out;
};

test('the document is what GET /api/openapi.json serves, built once per server version', (t) => {
  t.is(openApiDocument(7, '+09:00'), openApiDocument(7, '+09:00'));
  t.deepEqual(openApiDocument(7, '+09:00'), built.document);
  t.is(doc['openapi'], '3.1.0');
  t.is((doc.info as { version: string }).version, '7');
  t.deepEqual(
    doc.servers.map((s) => s['url']),
    ['/'],
  );
});

test('the shared views are components, referenced by $ref; no two codecs share a name', (t) => {
  t.deepEqual(built.clashes, [], 'two different codecs carry one name: rename one');
  const names = Object.keys(doc.components.schemas);
  for (const view of [
    'PlayerView',
    'CharacterView',
    'WeaponView',
    'FacilityView',
    'PresentView',
    'FloorView',
    'BattlePartyView',
    'QuestLogView',
    'FullView',
    'Changes',
    'Envelope',
    'ErrorEnvelope',
    'DrawType',
    'PlayerState',
  ]) {
    t.true(names.includes(view), view);
  }
  // Every collection in Changes is its view by $ref, not a copy.
  const changes = doc.components.schemas['Changes'] as { properties: Record<string, Schema> };
  t.deepEqual(changes.properties['managedCharacters'], {
    type: 'array',
    items: { $ref: '#/components/schemas/CharacterView' },
  });
  t.deepEqual(changes.properties['player'], { $ref: '#/components/schemas/PlayerView' });
  t.deepEqual(Object.keys(changes.properties).sort(), ['player', ...Object.keys(COLLECTION_CODECS)].sort());
  // get_all answers the whole view.
  const getAll = jsonSchemaOf(op('get', '/api/player/get_all').responses['200'] as Schema) as { allOf: Schema[] };
  t.deepEqual(getAll.allOf[0], { $ref: '#/components/schemas/Envelope' });
  t.true(refsIn(getAll).size >= 2);
  // Every reference resolves, and every component is used.
  const refs = refsIn({ paths: doc.paths, components: doc.components });
  for (const r of refs) t.notThrows(() => deref({ $ref: r }), r);
  for (const n of names) t.true(refs.has(`#/components/schemas/${n}`), `${n} is never used`);
});

test("every answer: 200 is the envelope with the operation's answer and, where it changes state, Changes", (t) => {
  for (const o of OPERATIONS) {
    const schema = jsonSchemaOf(op(o.method.toLowerCase(), `/api${o.path}`).responses['200'] as Schema) as {
      allOf: Schema[];
    };
    t.deepEqual(schema.allOf[0], { $ref: '#/components/schemas/Envelope' }, o.name);
    const changes = schema.allOf.some((s) => s['$ref'] === '#/components/schemas/Changes');
    t.is(changes, !(o.readOnly || accessOf(o) === 'account'), `${o.name}: Changes declared where the state can change`);
  }
});

test('POST bodies are required; GET fields are query parameters and say so', (t) => {
  for (const o of OPERATIONS) {
    const entry = op(o.method.toLowerCase(), `/api${o.path}`);
    if (o.method === 'POST') {
      t.is(entry.requestBody?.['required'], true, o.name);
      t.regex(entry['description'] as string, /JSON object body/);
    } else {
      t.is(entry.requestBody, undefined, o.name);
      t.regex(entry['description'] as string, /query parameters/);
    }
  }
  const draw = deref(jsonSchemaOf(op('post', '/api/player/gacha/draw').requestBody as Schema)) as {
    required: string[];
    properties: Record<string, Schema>;
  };
  t.true(draw.required.includes('gachaId') && draw.required.includes('drawType'));
  const present = op('get', '/api/player/present/get');
  t.deepEqual(
    present.parameters?.filter((p) => p['in'] === 'query').map((p) => p['name']),
    ['managedPresentId', 'stepCode'],
  );
});

test("the game's time zone: in info, in the time components every time field refers to, and answered by app/version/get", (t) => {
  t.is(doc.info['x-time-zone'], '+09:00');
  t.regex(String(doc.info['description']), /\*\*Times\.\*\* .*UTC\+09:00.*timeZone/);
  t.regex(String(doc.components.schemas['WireTime']?.['description']), /game's time zone, UTC\+09:00/);
  t.regex(String(doc.components.schemas['LocalTime']?.['description']), /game's time zone, UTC\+09:00/);
  const player = doc.components.schemas['PlayerView'] as { properties: Record<string, Schema> };
  t.deepEqual(player.properties['createdAt'], { $ref: '#/components/schemas/WireTime' });
  // Another zone in master data is another document.
  const west = buildOpenApi(7, '-01:30').document as { info: Schema };
  t.is(west.info['x-time-zone'], '-01:30');
  const version = jsonSchemaOf(op('get', '/api/app/version/get').responses['200'] as Schema) as { allOf: Schema[] };
  const answer = deref(version.allOf[1] as Schema) as { properties: Record<string, Schema>; required: string[] };
  t.true(answer.required.includes('timeZone'));
  t.regex(String(answer.properties['timeZone']?.['description']), /\+09:00/);
});

test("the gacha definition's fields say what -1, first10 and the weekday flags mean", (t) => {
  const def = doc.components.schemas['GachaDefinition'] as { properties: Record<string, Schema> };
  const said = (k: string) => String(def.properties[k]?.['description'] ?? '');
  t.regex(said('first10'), /first ten-draw.*-1 when/);
  for (const k of ['unlimitedGem', 'itemId', 'itemAmount', 'drawLimit', 'allLimit', 'reDraw'])
    t.regex(said(k), /-1/, k);
  for (const [k, day] of [
    ['sun', 'Sunday'],
    ['mon', 'Monday'],
    ['sat', 'Saturday'],
  ])
    t.regex(said(k ?? ''), new RegExp(`1: open on ${day}s.*0: closed`), k);
  t.regex(said('endAt'), /null when it has no end/);
  t.like(def.properties['first10'], { type: 'number' }, 'the description is beside the schema, not instead of it');
  const missing = Object.entries(def.properties)
    .filter(([k, v]) => k !== 'name' && typeof v['description'] !== 'string')
    .map(([k]) => k);
  t.deepEqual(missing, [], 'every field but the name is described');
});

test('drawType is an enum with the meaning of each value', (t) => {
  const draw = deref(jsonSchemaOf(op('post', '/api/player/gacha/draw').requestBody as Schema)) as {
    properties: Record<string, Schema>;
  };
  t.deepEqual(draw.properties['drawType'], { $ref: '#/components/schemas/DrawType' });
  const drawType = doc.components.schemas['DrawType'] as {
    type: string;
    enum: number[];
    description: string;
    'x-enum-descriptions': string[];
  };
  t.is(drawType.type, 'integer');
  t.deepEqual(drawType.enum, [1, 2, 3]);
  t.is(drawType['x-enum-descriptions'].length, 3);
  t.regex(drawType.description, /^1: .*; 2: .*paid.*; 3: .*ten/);
  // Quest state and room floors too; every enum with meanings says one for each value.
  const enums = Object.entries(doc.components.schemas).filter(([, s]) => s['x-enum-descriptions']);
  t.true(
    ['DrawType', 'QuestState', 'FloorId'].every((n) => enums.some(([name]) => name === n)),
    enums.map(([n]) => n).join(),
  );
  for (const [name, s] of enums)
    t.is((s['x-enum-descriptions'] as string[]).length, (s['enum'] as number[]).length, name);
});

test('sessions, the request hash and Idempotency-Key are declared', (t) => {
  const schemes = doc.components.securitySchemes;
  t.like(schemes['session'], { type: 'apiKey', in: 'header', name: 'X-STAR-SESSION-ID' });
  t.like(schemes['bearer'], { type: 'http', scheme: 'bearer' });
  t.like(schemes['adminBearer'], { type: 'http', scheme: 'bearer' });
  const hash = doc.components.parameters['RequestHash'] as { name: string; in: string; description: string };
  t.is(hash.name, 'X-STAR-REQUESTHASH');
  t.is(hash.in, 'header');
  t.regex(hash.description, /SHA-256/);
  t.regex(hash.description, /\[sessionId \+ " "\] \+ pathWithQuery \+ \[" " \+ rawBody\] \+ " " \+ salt/);
  t.regex(hash.description, /leading space/);
  const idem = doc.components.parameters['IdempotencyKey'] as { name: string; schema: Schema; description: string };
  t.is(idem.name, 'Idempotency-Key');
  t.like(idem.schema, { minLength: 1, maxLength: 255 });
  for (const o of OPERATIONS) {
    const entry = op(o.method.toLowerCase(), `/api${o.path}`);
    const params = (entry.parameters ?? []).map((p) => p['$ref']);
    t.true(params.includes('#/components/parameters/RequestHash'), o.name);
    t.is(params.includes('#/components/parameters/IdempotencyKey'), o.method === 'POST', o.name);
    t.deepEqual(entry.security, accessOf(o) === 'session' ? [{ session: [] }, { bearer: [] }] : [], o.name);
  }
});

test('error answers: each status with its result codes; 413, 429 with Retry-After, 409/422 for idempotency', (t) => {
  const draw = op('post', '/api/player/gacha/draw');
  const codesAt = (o: Operation, status: string): number[] => {
    const r = deref(o.responses[status] ?? {});
    const s = jsonSchemaOf(r) as { allOf: Array<{ properties?: { resultCode?: { enum: number[] } } }> };
    return s.allOf.flatMap((p) => p.properties?.resultCode?.enum ?? []);
  };
  t.deepEqual(codesAt(draw, '400'), [101, 102, 103]);
  t.deepEqual(codesAt(draw, '401'), [203]);
  t.deepEqual(codesAt(draw, '413'), [108]);
  t.deepEqual(codesAt(draw, '422'), [109]);
  t.deepEqual(codesAt(draw, '429'), [111]);
  t.true(codesAt(draw, '409').includes(110));
  t.true(codesAt(draw, '409').includes(445));
  t.truthy((deref(draw.responses['429'] ?? {})['headers'] as Record<string, Schema>)['Retry-After']);
  // A GET has no body and no Idempotency-Key: no 413, 422.
  const getAll = op('get', '/api/player/get_all');
  t.is(getAll.responses['413'], undefined);
  t.is(getAll.responses['422'], undefined);
  t.deepEqual(codesAt(getAll, '429'), [111]);
  // x-result-codes lists the same codes.
  const listed = draw['x-result-codes'] as Array<{ resultCode: number; status: number }>;
  for (const c of listed) t.true(codesAt(draw, String(c.status)).includes(c.resultCode), String(c.resultCode));
});

test('the admin API is described with its own security scheme', (t) => {
  const send = op('post', '/admin/presents');
  t.deepEqual(send.security, [{ adminBearer: [] }]);
  t.is(send.requestBody?.['required'], true);
  const req = deref(jsonSchemaOf(send.requestBody as Schema)) as {
    properties: Record<string, Schema>;
    required: string[];
  };
  t.deepEqual(req.required.sort(), ['grant', 'message', 'title']);
  t.truthy(req.properties['playerId'] && req.properties['all']);
  const answer = jsonSchemaOf(send.responses['200'] as Schema) as { allOf: Schema[] };
  t.deepEqual(deref(answer.allOf[1] ?? {})['required'], ['sent', 'sendId']);
  const read = op('get', '/admin/players/{playerId}');
  t.deepEqual(read.security, [{ adminBearer: [] }]);
  t.like(read.parameters?.[0] ?? {}, { name: 'playerId', in: 'path', required: true });
  t.truthy(read.responses['401'] && read.responses['404']);
  t.true(doc.tags.some((g) => g.name === 'admin'));
});

test('the operator search, deadlines and the probes are documented', (t) => {
  const find = op('get', '/admin/players');
  t.deepEqual(find.security, [{ adminBearer: [] }]);
  t.deepEqual(
    find.parameters?.map((p) => [p['name'], p['in'], p['required']]),
    [
      ['playerId', 'query', false],
      ['uuid', 'query', false],
      ['myCode', 'query', false],
      ['name', 'query', false],
    ],
  );
  const found = deref((jsonSchemaOf(find.responses['200'] as Schema) as { allOf: Schema[] }).allOf[1] ?? {}) as {
    properties: { players: { items: Schema } };
  };
  t.deepEqual((deref(found.properties.players.items) as { required: string[] }).required, [
    'playerId',
    'uuid',
    'myCode',
    'name',
    'level',
    'createdAt',
    'lastLoginAt',
  ]);
  const send = op('post', '/admin/presents');
  t.regex(send['description'] as string, /2026-12-31T23:59:59 \(the game's time zone.*ISO 8601/);
  const req = deref(jsonSchemaOf(send.requestBody as Schema)) as { properties: Record<string, Schema> };
  t.deepEqual(req.properties['deadline'], { anyOf: [{ $ref: '#/components/schemas/OperatorTime' }, { type: 'null' }] });
  t.like(doc.components.schemas['OperatorTime'], { type: 'string' });
  t.regex(doc.components.schemas['OperatorTime']?.['description'] as string, /game's time zone.*ISO 8601/);
  for (const path of ['/healthz', '/readyz', '/metrics']) {
    const probe = op('get', path);
    t.deepEqual(probe['tags'], ['ops'], path);
    t.truthy(probe.responses['200'], path);
  }
  t.truthy(op('get', '/readyz').responses['503']);
  t.like(doc.components.securitySchemes['metricsBearer'], { type: 'http', scheme: 'bearer' });
});

test('every tag has a description', (t) => {
  const groups = new Set([...OPERATIONS.map((o) => o.group), 'admin', 'ops']);
  t.deepEqual(new Set(doc.tags.map((g) => g.name)), groups);
  for (const g of doc.tags) t.true(g.description.length > 10, g.name);
});

const run = promisify(execFile);
/** Redocly CLI with its telemetry and update check off: the test needs no network. */
const QUIET = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  DO_NOT_TRACK: '1',
  NO_COLOR: '1',
};

test('redocly lint with the recommended rules: 0 errors', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-openapi-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'openapi.json');
  writeFileSync(file, JSON.stringify(openApiDocument(1, '+09:00')));
  const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly');
  // Exit code 1 on errors: read the report either way.
  const out = await run(bin, ['lint', '--extends=recommended', '--format=json', file], {
    env: QUIET,
    cwd: dir,
    maxBuffer: 64 << 20,
  }).catch((e: { stdout?: string; stderr?: string }) => ({ stdout: e.stdout ?? '', stderr: e.stderr ?? '' }));
  const report = JSON.parse(out.stdout) as {
    totals: { errors: number; warnings: number };
    problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer: string }> }>;
  };
  const summary = report.problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`);
  t.log(
    `redocly lint (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings`,
    ...summary.slice(0, 20),
  );
  t.is(
    report.totals.errors,
    0,
    summary
      .filter((s) => s.startsWith('error'))
      .slice(0, 20)
      .join('\n'),
  );
});

test('openapi-typescript: no `unknown` in any generated type', async (t) => {
  const types = astToString(
    await openapiTS(openApiDocument(1, '+09:00') as unknown as Parameters<typeof openapiTS>[0]),
  );
  // Comments may say "unknown"; response headers are always typed `[name: string]: unknown` by the generator.
  const code = types
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((l) => !/^\s*\[name: string\]: unknown;$/.test(l));
  // Where each `unknown` is: the last schema or operation opened above it (4-space indent in the output).
  const where: string[] = [];
  let owner = '';
  for (const line of code) {
    const m = /^ {4}"?([\w/{}.-]+)"?: \{$/.exec(line);
    if (m) owner = m[1] ?? '';
    if (/\bunknown\b/.test(line)) where.push(`${owner}: ${line.trim()}`);
  }
  t.log(`openapi-typescript: ${where.length} unknown in the generated types; untyped codecs: ${built.untyped.length}`);
  t.deepEqual(built.untyped, [], 'codecs the document cannot describe');
  t.deepEqual(where, []);
});
