// npm run storage:repair -- --player ID [--data DIR] [--from EXPORT] [--archive] [--dry-run] (--help for the options)
// Replaces a stopped server's damaged player snapshot (issue 33: a damaged snapshot left its
// player answering 503/105 for good). By default the player is rebuilt by replaying the
// replay-log entries its states depend on (the kept segments and the journals' entries, as
// `npm run replay` does), and the rebuilt state must be the one the log's last entry for the
// player made (its version and state hash) and agree with every entry before it. With --from,
// the state is an export (`hoshi-player` v1, GET /admin/players/:id/export), checked the same
// way against the log when the log holds the player. The damaged file is kept beside the new
// one (`<id>.json.damaged`). Refused, with nothing changed: a directory a running server holds
// (DATA_DIR/server.pid), a snapshot that reads whole, a rebuild that does not match the log.
// Exit 0: repaired (or, with --dry-run, repairable); 1: not repaired; 2: refused or a bad
// command line; 3: the player's history begins before the kept replay log (use --archive or --from).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bornBefore, readPlayerLog, replayPlayer } from '../adapters/service/replay.js';
import { canonicalJson } from '../adapters/storage/canonical.js';
import { readSnapshot } from '../adapters/storage/checkpoint.js';
import { refuseHeld } from '../adapters/storage/dir-holder.js';
import { readLogAt } from '../adapters/storage/file-reader.js';
import { listArchives, readArchives } from '../adapters/storage/oplog-archive.js';
import { keptFromAt } from '../adapters/storage/oplog-segments.js';
import type { StoredLogEntry } from '../adapters/storage/replay-log.js';
import {
  journalLogEntries,
  lastResultOf,
  mismatchWith,
  readJsonFile,
  replaceSnapshot,
  snapshotCondition,
} from '../adapters/storage/snapshot-repair.js';
import type { LogFilter } from '../adapters/storage/storage.js';
import { readDocument } from '../core/player-document.js';
import type { PlayerState } from '../core/state.js';
import { cli, flag, int, str, UsageError } from './args.js';
import { mastersOf } from './lib/masters.js';

const SPEC = {
  command: 'npm run storage:repair --',
  summary:
    "Replaces a stopped server's damaged player snapshot: the player rebuilt from the replay log and the journal (or taken from an export with --from), checked against the log's last entry for the player (version and state hash), written in place of the damaged file, which is kept beside it as <id>.json.damaged. Refuses a directory a running server holds. Exit 0 repaired; 1 not repaired; 2 refused; 3 history before the kept log.",
  options: {
    player: {
      type: 'string',
      value: 'ID',
      required: true,
      kind: 'integer',
      min: 1,
      description: 'the player to repair',
    },
    data: {
      type: 'string',
      value: 'DIR',
      default: process.env['DATA_DIR'] || './data',
      description: "the JSON-file store's directory (DATA_DIR sets the default)",
    },
    from: {
      type: 'string',
      value: 'FILE',
      description:
        "take the state from this export (hoshi-player v1, GET /admin/players/:id/export) instead of replaying the log; checked against the log's last entry when the log holds the player",
    },
    archive: {
      type: 'boolean',
      description:
        'also read the archived segments (DIR/oplog-archive): for a player whose history begins before the kept log',
    },
    'dry-run': { type: 'boolean', description: 'rebuild and check, but write nothing' },
  },
} as const;

/** Entries of two reads of the log, each once, in seq order. */
const merged = (a: ReadonlyArray<StoredLogEntry>, b: ReadonlyArray<StoredLogEntry>): StoredLogEntry[] =>
  [...new Map([...a, ...b].map((e) => [e.seq ?? 0, e])).values()].sort((x, y) => (x.seq ?? 0) - (y.seq ?? 0));

const say = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

/** The state the repair writes, or the exit status of why there is none (said on stdout). */
type Rebuilt = { readonly state: PlayerState; readonly how: string } | { readonly exit: number };

/** The player rebuilt by replaying its log, checked against the log's last entry. */
const fromLog = async (
  dir: string,
  id: number,
  log: StoredLogEntry[],
  journal: StoredLogEntry[],
  archive: boolean,
): Promise<Rebuilt> => {
  const starts = [await keptFromAt(dir), journal[0]?.seq, archive ? (await listArchives(dir))[0]?.first : undefined];
  const kept = starts.filter((n): n is number => n !== undefined);
  const keptFrom = kept.length === 0 ? undefined : Math.min(...kept);
  const lacking = keptFrom === 1 ? [] : bornBefore(log);
  if (lacking.length > 0) {
    say(
      `player ${id}: its history begins before the kept replay log (created before it: ${lacking.join(', ')}); run again with --archive, or restore it from an export with --from`,
    );
    return { exit: 3 };
  }
  const r = replayPlayer(log, mastersOf(dir), id, undefined);
  const d = r.firstDifference;
  if (d !== null) {
    say(`player ${id}: the replay differs from the log at entry ${d.seq ?? '?'} (${d.op ?? d.kind}): ${d.reason}`);
    return { exit: 1 };
  }
  if (r.rebuilt === undefined) {
    say(`player ${id}: no entry of the log made it`);
    return { exit: 1 };
  }
  return { state: r.rebuilt, how: `rebuilt from ${r.entries} replay-log entries (${r.playerEntries} of the player)` };
};

/** The player's state from an export document. */
const fromExport = async (file: string, id: number): Promise<Rebuilt> => {
  const doc = readDocument(await readJsonFile(file));
  if (doc._tag === 'Left') {
    say(`${file} is not a player export: ${doc.left.field} ${doc.left.reason}`);
    return { exit: 1 };
  }
  if (doc.right.playerId !== id) {
    say(`${file} holds player ${doc.right.playerId}, not ${id}`);
    return { exit: 1 };
  }
  return { state: doc.right.state, how: `taken from ${file} (exported ${doc.right.exportedAt})` };
};

cli(SPEC, async (args) => {
  const id = int(args, 'player');
  const dir = resolve(str(args, 'data'));
  const from = str(args, 'from', '');
  const archive = flag(args, 'archive');
  if (from !== '' && archive)
    throw new UsageError('--archive reads the log to replay it; --from takes the state as given');
  if (!existsSync(join(dir, 'journal.log'))) throw new Error(`${dir} holds no data (no journal.log)`);
  await refuseHeld(dir, `repairing player ${id}`);
  const condition = await snapshotCondition(dir, id);
  if ('whole' in condition) {
    say(
      `player ${id}: its snapshot reads whole (version ${condition.whole.version}): nothing to repair, nothing changed`,
    );
    return 1;
  }
  say(`player ${id}: its snapshot is ${'damaged' in condition ? `damaged: ${condition.damaged}` : 'missing'}`);
  const journal = await journalLogEntries(dir);
  const kept = (filter: LogFilter) => readLogAt(dir, journal, filter);
  const read = archive ? async (f: LogFilter) => merged(await readArchives(dir, f), await kept(f)) : kept;
  const log = await readPlayerLog(read, id);
  const last = lastResultOf(log, id);
  const got = from === '' ? await fromLog(dir, id, log, journal, archive) : await fromExport(from, id);
  if ('exit' in got) return got.exit;
  if (last === undefined) {
    if (from === '') return 1; // fromLog found no entry already
    say(`player ${id}: the replay log holds no entry of the player: the export is taken unchecked`);
  } else {
    const wrong = mismatchWith(got.state, last);
    if (wrong !== undefined) {
      say(`player ${id}: the state ${got.how} is not the player's last in the log: ${wrong}; nothing changed`);
      return 1;
    }
  }
  const checked = last === undefined ? '' : `, its state hash the log's last entry's`;
  if (flag(args, 'dry-run')) {
    say(`player ${id}: ${got.how}, version ${got.state.version}${checked}; --dry-run: nothing written`);
    return 0;
  }
  const keptAs = await replaceSnapshot(dir, got.state);
  const back = await readSnapshot(dir, id);
  if (back === undefined || canonicalJson(back) !== canonicalJson(got.state))
    throw new Error(`player ${id}: the snapshot written does not read back as written`);
  say(
    `player ${id}: ${got.how}, version ${got.state.version}${checked}; its snapshot written${keptAs === undefined ? '' : `, the damaged file kept as ${keptAs}`}. The server may be started.`,
  );
  return 0;
});
