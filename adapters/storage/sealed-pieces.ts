// Large sealed files written in pieces (issue 36): the index log's full line (the
// player keys and sessions), with 100,000 players, ~20 MB of JSON, was made by one
// JSON.stringify, and the event loop stood still ~300 ms each checkpoint. Here the
// JSON is made a list's few thousand entries at a time, each piece written before
// the next is made (the writes let the event loop run between them), and the CRC
// is carried from piece to piece and written at the file's start last. The bytes
// are those seal(JSON.stringify(value)) gives.
import { open } from 'node:fs/promises';
import { rename } from 'node:fs/promises';
import { crc32 } from './crc32.js';
import { writeWhole } from './durable.js';

/** A list whose entries are made into JSON a piece at a time (from a copy taken when the checkpoint was cut). */
export class Pieces {
  constructor(readonly items: Iterable<unknown>) {}
}

/** A JSON value, any list of which may be Pieces. */
export type PieceValue = unknown;

const ENTRIES_A_PIECE = 500;

/** The JSON text of `value`, in pieces: a Pieces list's entries a few thousand at a time, the rest whole. */
export function* jsonPieces(value: PieceValue): Generator<string> {
  if (value instanceof Pieces) {
    yield '[';
    let batch: string[] = [];
    let first = true;
    for (const item of value.items) {
      batch.push(JSON.stringify(item));
      if (batch.length >= ENTRIES_A_PIECE) {
        yield (first ? '' : ',') + batch.join(',');
        first = false;
        batch = [];
      }
    }
    if (batch.length > 0) yield (first ? '' : ',') + batch.join(',');
    yield ']';
    return;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).some(holdsPieces)) {
    let sep = '{';
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined) continue;
      yield `${sep}${JSON.stringify(k)}:`;
      sep = ',';
      yield* jsonPieces(v);
    }
    yield sep === '{' ? '{}' : '}';
    return;
  }
  yield JSON.stringify(value);
}

const holdsPieces = (v: unknown): boolean =>
  v instanceof Pieces ||
  (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).some(holdsPieces));

/** What to gather before a write: fewer, larger writes; small enough that making one is a millisecond or two. */
const WRITE_BYTES = 64 * 1024;

/**
 * Writes `value` as a sealed file (sealed.ts: CRC, space, JSON, line feed) whole
 * beside `path` (temp file, fsync, rename), made and written in pieces; answers its bytes.
 */
export const writeSealedPieces = (path: string, value: PieceValue): Promise<number> =>
  writeSealedText(path, jsonPieces(value));

/**
 * Writes JSON text given in pieces as a sealed file whole beside `path` (temp file,
 * fsync, rename): the pieces are made up to WRITE_BYTES at a time, each batch written
 * before the next is made, so the event loop runs between them; `turn`, when given,
 * is awaited before each batch is made (loopTurns: one batch a turn among concurrent
 * writers). Text that fits one batch is written in one write. Answers the file's bytes.
 */
export const writeSealedText = async (
  path: string,
  pieces: Iterable<string>,
  turn?: () => Promise<void>,
): Promise<number> => {
  const tmp = `${path}.tmp`;
  const it = pieces[Symbol.iterator]();
  const batch = async (): Promise<{ text: string; done: boolean }> => {
    if (turn !== undefined) await turn();
    const held: string[] = [];
    let length = 0;
    for (;;) {
      const r = it.next();
      if (r.done === true) return { text: held.join(''), done: true };
      held.push(r.value);
      length += r.value.length;
      if (length >= WRITE_BYTES) return { text: held.join(''), done: false };
    }
  };
  const fh = await open(tmp, 'w');
  let size = 0;
  try {
    let next = await batch();
    if (next.done) {
      const buf = Buffer.from(next.text, 'utf8');
      await writeWhole(
        fh,
        Buffer.concat([Buffer.from(`${crc32(buf).toString(16).padStart(8, '0')} `, 'latin1'), buf, Buffer.from('\n')]),
        0,
        'checkpoint',
      );
      size = buf.length + 10;
    } else {
      let pos = 9;
      let crc = 0;
      for (;;) {
        const buf = Buffer.from(next.text, 'utf8');
        crc = crc32(buf, crc);
        await writeWhole(fh, buf, pos, 'checkpoint');
        pos += buf.length;
        if (next.done) break;
        next = await batch();
      }
      await writeWhole(fh, Buffer.from('\n'), pos, 'checkpoint');
      await writeWhole(fh, Buffer.from(`${crc.toString(16).padStart(8, '0')} `, 'latin1'), 0, 'checkpoint');
      size = pos + 1;
    }
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  return size;
};
