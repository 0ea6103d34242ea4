// Large sealed files made and written in pieces (a checkpoint's keys file and sessions):
// the same bytes as seal(JSON.stringify(...)), read back by unseal, taken from a copy.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonPieces, Pieces, writeSealedPieces, writeSealedText } from '../../adapters/storage/sealed-pieces.js';
import { seal, unseal } from '../../adapters/storage/sealed.js';
import { KeyIndex } from '../../adapters/storage/key-index.js';
import { IndexModel } from '../../adapters/storage/index-model.js';
import { jsCrc32 } from '../../adapters/storage/crc32.js';
import zlib from 'node:zlib';
import { tempDir } from '../_support/fs-spy.js';

const plain = (v: unknown): unknown =>
  v instanceof Pieces
    ? [...v.items].map(plain)
    : typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
      : v;

test('the pieces join to JSON.stringify of the value, lists of any length (none, one piece, several) and nested objects alike', (t) => {
  for (const n of [0, 1, 500, 501, 1_700]) {
    const value = {
      seq: 3,
      keysFile: undefined,
      index: { sessions: new Pieces(Array.from({ length: n }, (_, i) => [`k${i}`, { playerId: i }])), other: [1, 2] },
      empty: {},
    };
    const pieces = [...jsonPieces(value)];
    t.is(pieces.join(''), JSON.stringify(plain(value)), `${n} entries`);
    if (n > 500) t.true(pieces.length > 4, 'made a few thousand entries at a time');
  }
  t.is([...jsonPieces(new Pieces([]))].join(''), '[]');
  t.is([...jsonPieces({ a: { b: new Pieces([1]) } })].join(''), '{"a":{"b":[1]}}');
});

test('a file written in pieces holds exactly what seal gives, and is read back whole', async (t) => {
  const dir = tempDir(t);
  const value = {
    seq: 9,
    index: {
      sessions: new Pieces(
        Array.from({ length: 70_000 }, (_, i) => [
          `key-${i}-é`,
          { playerId: i, epoch: 0, createdAt: i, lastSeenAt: i },
        ]),
      ),
    },
  };
  const path = join(dir, 'checkpoint.json');
  await writeSealedPieces(path, value);
  const bytes = readFileSync(path);
  t.is(bytes.toString('utf8'), seal(JSON.stringify(plain(value))));
  t.deepEqual(unseal(bytes, path), plain(value));
});

test('text given in pieces is written sealed: in one write when it fits a batch, else a batch a turn (the turn awaited before each)', async (t) => {
  const dir = tempDir(t);
  let turns = 0;
  const turn = async () => {
    turns++;
  };
  const small = ['{"a":', '1', '}'];
  await writeSealedText(join(dir, 'small.json'), small, turn);
  t.is(readFileSync(join(dir, 'small.json'), 'utf8'), seal('{"a":1}'));
  t.is(turns, 1);
  turns = 0;
  const big = [
    '[',
    ...Array.from({ length: 3_000 }, (_, i) => `${i === 0 ? '' : ','}{"n":${i},"text":"${'é'.repeat(40)}"}`),
    ']',
  ];
  await writeSealedText(join(dir, 'big.json'), big, turn);
  const bytes = readFileSync(join(dir, 'big.json'));
  t.is(bytes.toString('utf8'), seal(big.join('')));
  t.is((unseal(bytes, 'big.json') as unknown[]).length, 3_000);
  // ~200 kB of text: a batch is 64 kB of characters, so four batches, each after a turn.
  t.is(turns, Math.ceil(big.join('').length / (64 * 1024)));
});

test('a CRC carried from piece to piece is the CRC of the whole (the table loop and zlib alike)', (t) => {
  const a = Buffer.from('the quick brown ');
  const b = Buffer.from('fox jumps over the lazy dog é');
  t.is(jsCrc32(b, jsCrc32(a)), jsCrc32(Buffer.concat([a, b])));
  t.is(jsCrc32(b, jsCrc32(a)), zlib.crc32(Buffer.concat([a, b])));
});

test('a frozen key index and frozen sessions keep what they held when taken, whatever changes after', (t) => {
  const k = new KeyIndex();
  k.set('a', 1).set('b', 2).set('ü', 3);
  k.delete('b');
  const frozen = k.frozen();
  k.set('c', 4);
  k.set('a', 9);
  k.delete('ü');
  t.deepEqual(
    [...frozen],
    [
      ['a', 1],
      ['ü', 3],
    ],
  );
  t.deepEqual(
    [...k],
    [
      ['a', 9],
      ['c', 4],
    ],
  );
  const m = new IndexModel();
  const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
  m.sessions.set('s', session);
  m.maps.uuid.set('u', 1);
  const f = m.frozen();
  m.sessions.delete('s');
  m.maps.uuid.set('v', 2);
  t.deepEqual(plain(f), {
    keys: { maxPlayerId: 0, uuid: [['u', 1]], myCode: [], moveCode: [] },
    rest: { sessions: [['s', session]] },
  });
});
