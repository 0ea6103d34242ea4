// npm run master -- publish DIR [--at TIME] [--note TEXT] | list | cancel ID (--help for the options)
// The game data's versions from the shell, through a running server's operator API
// (the same validation, the same schedule every process reads): publish a directory
// laid out as fixtures/ (printing what it changes in words), schedule it for an
// instant (or now with --now), list the version in force and the schedule, cancel.
import { resolve } from 'node:path';
import { loadMaster, masterSourceOf, MasterDataError } from '../adapters/master/load.js';
import { cli, str, UsageError, type Parsed } from './args.js';
import { adminCaller, type AdminBody } from './lib/admin-call.js';

const SPEC = {
  command: 'npm run master --',
  summary:
    "The game data's versions on a running server (its operator API): `publish DIR` keeps the files of DIR (laid out as fixtures/) as a version and prints what it changes; with --at or --now it is scheduled too. `list` prints the version in force, the scheduled ones and the history; `cancel ID` cancels a scheduled one before its time.",
  positionals: '<publish DIR | list | cancel ID>',
  options: {
    url: { type: 'string', value: 'URL', default: 'http://localhost:8080', description: "the server's address" },
    token: {
      type: 'string',
      value: 'TOKEN',
      defaultText: '$ADMIN_TOKEN',
      description: "the operator's token (Authorization: Bearer)",
    },
    at: {
      type: 'string',
      value: 'TIME',
      description:
        "schedule the version published for this instant (2026-12-31T23:59:59 in the game's time zone, or ISO 8601 with a zone)",
    },
    now: { type: 'boolean', description: 'schedule the version published to take effect now' },
    note: { type: 'string', value: 'TEXT', default: '', description: 'a note for the history' },
  },
} as const;

type Body = AdminBody;

/** Reads DIR as start-up does (a folder file joined), sends its files, prints the diff, schedules when asked. */
const publish = async (
  call: (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Body>,
  dir: string,
  opts: Readonly<Record<string, string | boolean | undefined>>,
): Promise<number> => {
  let raw: Record<string, unknown>;
  try {
    raw = masterSourceOf(loadMaster(dir))?.raw ?? {};
  } catch (e) {
    if (!(e instanceof MasterDataError)) throw e;
    process.stderr.write(`${e.message}\n`);
    return 1;
  }
  const files = Object.fromEntries(Object.entries(raw).map(([name, v]) => [`${name}.json`, JSON.stringify(v)]));
  const note = typeof opts['note'] === 'string' ? opts['note'] : '';
  const p = await call('POST', '/admin/master/versions', { files, note });
  const diff = p['diff'] as Array<{ file: string; changes: string[] }>;
  process.stdout.write(`version ${String(p['version'])}${p['alreadyKept'] ? ' (published before)' : ''}\n`);
  if (diff.length === 0) process.stdout.write('no change against the version in force\n');
  for (const d of diff) process.stdout.write(`${d.file}\n${d.changes.map((c) => `  ${c}\n`).join('')}`);
  if (opts['at'] === undefined && opts['now'] !== true) return 0;
  const at = typeof opts['at'] === 'string' ? { at: opts['at'] } : {};
  const s = await call('POST', '/admin/master/schedule', { version: p['version'], note, ...at });
  process.stdout.write(`scheduled (entry ${String(s['id'])}): takes effect at ${String(s['at'])}\n`);
  return 0;
};

const list = (m: Body): number => {
  const v = m['versions'] as {
    inForce: string;
    scheduled: Array<{ id: number; version: string; at: string; note: string }>;
    history: Array<{ id: number; version: string; at: string; cancelledAt: string | null; note: string }>;
  };
  process.stdout.write(`in force: ${v.inForce}\n`);
  process.stdout.write(v.scheduled.length === 0 ? 'nothing scheduled\n' : 'scheduled:\n');
  for (const e of v.scheduled) process.stdout.write(`  ${e.id}  ${e.at}  ${e.version}  ${e.note}\n`);
  if (v.history.length > 0) process.stdout.write('history:\n');
  for (const e of v.history)
    process.stdout.write(
      `  ${e.id}  ${e.at}  ${e.version}${e.cancelledAt ? `  cancelled ${e.cancelledAt}` : ''}  ${e.note}\n`,
    );
  return 0;
};

/** The command line's command, run; a refusal by the server is said on stderr, exit 1. */
const main = async (args: Parsed): Promise<number> => {
  const url = str(args, 'url').replace(/\/$/, '');
  const token = typeof args.values['token'] === 'string' ? args.values['token'] : process.env['ADMIN_TOKEN'];
  if (!token) throw new UsageError('give --token or set ADMIN_TOKEN');
  const call = adminCaller(url, token);
  const [command, arg] = args.positionals;
  if (command === 'list') return list(await call('GET', '/admin/master'));
  if (command === 'cancel') {
    if (!arg || !/^\d+$/.test(arg)) throw new UsageError('give the schedule entry id: cancel ID');
    await call('POST', `/admin/master/schedule/${arg}/cancel`, {});
    process.stdout.write(`schedule entry ${arg} cancelled\n`);
    return 0;
  }
  if (command !== 'publish' || !arg) throw new UsageError('give a command: publish DIR, list or cancel ID');
  return publish(call, resolve(arg), args.values);
};

// A failed call (refused, unreachable) is its message and exit status 1; a bad command line 2.
cli(SPEC, main, { errorExit: 1 });
