// Files the store writes whole (player snapshots, checkpoint.json, kept answers; the index log a line at a time)
// carry a checksum, framed as a journal record is: the CRC-32 of the JSON in 8 hex
// digits, a space, the JSON, a line feed. A file whose bytes do not match its CRC is
// refused (FileDamaged, naming it), never read as data. A file that starts with `{`
// was written before checksums (legacy): it is read as JSON, and gets its CRC the
// next time it is written.
import { crc32 } from './crc32.js';
import { StorageError } from './storage.js';

/** A file that is not what the store wrote: damaged, cut short, or not JSON. */
export class FileDamaged extends StorageError {
  constructor(
    readonly file: string,
    readonly reason: string,
    cause?: unknown,
  ) {
    super(
      `${file} is damaged: ${reason}; it is not read (npm run storage:check -- DATA_DIR lists every damaged file)`,
      cause,
    );
    this.name = 'FileDamaged';
  }
}

/** The text to write for `json`: its CRC, a space, the JSON, a line feed. */
export const seal = (json: string): string =>
  `${crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0')} ${json}\n`;

/** The JSON a sealed file holds, checked against its CRC; `legacy` when it was written before checksums. Throws FileDamaged. */
export const unsealText = (bytes: Buffer, file: string): { json: string; legacy: boolean } => {
  if (bytes[0] === 0x7b /* { */) return { json: bytes.toString('utf8'), legacy: true };
  // The CRC: eight characters, each a lowercase hex digit.
  if (bytes.length < 10 || bytes[8] !== 0x20 || /[^0-9a-f]/.test(bytes.subarray(0, 8).toString('latin1'))) {
    throw new FileDamaged(file, bytes.length === 0 ? 'it is empty' : 'it does not start with a CRC and a space');
  }
  if (bytes[bytes.length - 1] !== 0x0a) throw new FileDamaged(file, 'it is cut short (no line feed at its end)');
  const body = bytes.subarray(9, bytes.length - 1);
  if (Number.parseInt(bytes.subarray(0, 8).toString('latin1'), 16) !== crc32(body))
    throw new FileDamaged(file, 'its CRC does not match its bytes');
  return { json: body.toString('utf8'), legacy: false };
};

/** A sealed file's JSON, parsed. Throws FileDamaged (a CRC that does not match, JSON that does not parse). */
export const unseal = (bytes: Buffer, file: string): unknown => {
  const { json } = unsealText(bytes, file);
  try {
    return JSON.parse(json);
  } catch (e) {
    throw new FileDamaged(file, 'its JSON does not parse', e);
  }
};
