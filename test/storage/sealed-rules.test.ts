// sealed.ts and crc32.ts (issue 23): the CRC framing of the files the store writes
// whole (snapshots, keys files, checkpoint.json), and each way a file can fail it.
import test from 'ava';
import zlib from 'node:zlib';
import { crc32, jsCrc32 } from '../../adapters/storage/crc32.js';
import { FileDamaged, seal, unseal, unsealText } from '../../adapters/storage/sealed.js';
import { StorageError } from '../../adapters/storage/storage.js';

test("the CRC is CRC-32/IEEE, the table loop and zlib's giving the same values", (t) => {
  const fox = Buffer.from('The quick brown fox jumps over the lazy dog');
  t.is(crc32(fox), 0x414fa339);
  t.is(jsCrc32(fox), 0x414fa339);
  t.is(jsCrc32(Buffer.alloc(0)), 0);
  t.is(jsCrc32(Buffer.from('123456789')), 0xcbf43926);
  const all = Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 7) % 256));
  t.is(jsCrc32(all), zlib.crc32(all));
});

test('a sealed file is its CRC in 8 lowercase hex digits, a space, the JSON and a line feed; it unseals to the JSON', (t) => {
  const text = seal('{"a":1}');
  t.is(text, `${crc32(Buffer.from('{"a":1}')).toString(16).padStart(8, '0')} {"a":1}\n`);
  t.regex(text, /^[0-9a-f]{8} /);
  t.deepEqual(unsealText(Buffer.from(text), 'f'), { json: '{"a":1}', legacy: false });
  t.deepEqual(unseal(Buffer.from(text), 'f'), { a: 1 });
  // A CRC with leading zeros keeps them.
  const small = Array.from({ length: 4000 }, (_, i) => `${i}`).find((j) => crc32(Buffer.from(j)) < 0x10000000) ?? '';
  t.regex(seal(small), /^0[0-9a-f]{7} /);
  t.deepEqual(unseal(Buffer.from(seal(small)), 'f'), JSON.parse(small));
});

test('a file written before CRCs (it starts with `{`) is read as JSON, marked legacy', (t) => {
  t.deepEqual(unsealText(Buffer.from('{"a":2}'), 'f'), { json: '{"a":2}', legacy: true });
  t.deepEqual(unseal(Buffer.from('{"a":2}'), 'f'), { a: 2 });
});

test('each way a sealed file can be wrong is FileDamaged, naming the file and what is wrong', (t) => {
  const good = seal('{"a":1}');
  const cases: Array<[string, Buffer, string]> = [
    ['empty', Buffer.alloc(0), 'it is empty'],
    ['too short for a CRC and a space', Buffer.from('0000000 \n'), 'it does not start with a CRC and a space'],
    [
      'a CRC and a space, nothing after (9 bytes)',
      Buffer.from('00000000 '),
      'it does not start with a CRC and a space',
    ],
    ['no space', Buffer.from(good.replace(' ', 'x')), 'it does not start with a CRC and a space'],
    // {"a":1}'s CRC is 561bacaf: in upper case, hex all the same.
    [
      'upper-case CRC',
      Buffer.from(good.slice(0, 8).toUpperCase() + good.slice(8)),
      'it does not start with a CRC and a space',
    ],
    ['a CRC that is not hex', Buffer.from(`zzzzzzzz${good.slice(8)}`), 'it does not start with a CRC and a space'],
    ['cut short', Buffer.from(good.slice(0, -1)), 'it is cut short (no line feed at its end)'],
    ['CRC does not match', Buffer.from(good.replace('"a":1', '"a":2')), 'its CRC does not match its bytes'],
    [
      'the line feed counted in',
      Buffer.from(`${crc32(Buffer.from('{"a":1}\n')).toString(16).padStart(8, '0')} {"a":1}\n`),
      'its CRC does not match its bytes',
    ],
  ];
  for (const [what, bytes, reason] of cases) {
    const err = t.throws(() => unsealText(bytes, '/d/x.json'), { instanceOf: FileDamaged }, what);
    t.is(
      err?.message,
      `/d/x.json is damaged: ${reason}; it is not read (npm run storage:check -- DATA_DIR lists every damaged file)`,
      what,
    );
    t.deepEqual([err?.file, err?.reason, err?.name], ['/d/x.json', reason, 'FileDamaged'], what);
  }
  // 10 bytes: a CRC (of nothing), a space and a line feed frame an empty JSON, which does not parse.
  t.deepEqual(unsealText(Buffer.from('00000000 \n'), 'f'), { json: '', legacy: false });
  t.is(
    t.throws(() => unseal(Buffer.from('00000000 \n'), 'f'), { instanceOf: FileDamaged })?.reason,
    'its JSON does not parse',
  );
  const notJson = t.throws(() => unseal(Buffer.from(seal('{"a":')), '/d/x.json'), { instanceOf: FileDamaged });
  t.is(notJson?.reason, 'its JSON does not parse');
  t.true(notJson?.cause instanceof SyntaxError);
  t.true(notJson instanceof StorageError);
});
