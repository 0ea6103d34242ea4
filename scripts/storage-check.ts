// npm run storage:check -- DATA_DIR [--truncate-at OFFSET [--file journal.log]] (--help for the options)
// Checks a stopped server's JSON-file data directory: every journal record (past
// any damage, each damaged one with its file and offset), checkpoint.json, the index
// log and every player snapshot against its checksum. Exit 0: nothing damaged (a
// torn tail, which the next start drops, is reported but is not damage); 1: damage.
// `--truncate-at OFFSET` is the journal's repair: it drops the journal's records from
// OFFSET on (their bytes kept beside it in a .dropped-at file); see docs/journal-format.md.
// It refuses (exit 2, nothing changed) a directory a running server holds (DATA_DIR/server.pid).
// A damaged snapshot's repair is npm run storage:repair (scripts/storage-repair.ts), which the report names.
import { resolve } from 'node:path';
import { checkDataDir, formatReport, truncateJournalAt } from '../adapters/storage/check.js';
import { cli, int, str, UsageError } from './args.js';

const SPEC = {
  command: 'npm run storage:check --',
  summary:
    "Checks a stopped server's data directory (journals, checkpoint, index log, snapshots, the replay log's segments) and lists every damaged record or file (exit 1 when any; 0 when none). With --truncate-at, drops the journal's records from that offset on, keeping their bytes in a .dropped-at file, then checks again; refused (exit 2, nothing changed) while a running server holds the directory. A damaged snapshot's repair is npm run storage:repair, which the report names.",
  positionals: '<DATA_DIR>',
  options: {
    'truncate-at': {
      type: 'string',
      value: 'OFFSET',
      kind: 'integer',
      description:
        'the repair: cut the journal at this byte offset (the start of a record, as the check reports it); every record from there on is dropped',
    },
    file: {
      type: 'string',
      value: 'NAME',
      default: 'journal.log',
      description:
        'the journal --truncate-at cuts (journal.log, or a rotated journal.<seq>.log; later journals are moved aside too)',
    },
  },
} as const;

cli(SPEC, async (args) => {
  const given = args.positionals[0] ?? process.env['DATA_DIR'];
  if (given === undefined || args.positionals.length > 1) throw new UsageError('give one data directory');
  const dir = resolve(given);
  if (args.values['truncate-at'] !== undefined) {
    const offset = int(args, 'truncate-at');
    const { dropped, keptIn } = await truncateJournalAt(dir, str(args, 'file'), offset);
    process.stdout.write(
      `cut ${str(args, 'file')} at byte ${offset}: ${dropped} whole record(s) dropped; the bytes are kept in ${keptIn.join(', ')}\n\n`,
    );
  }
  const report = await checkDataDir(dir);
  process.stdout.write(`${formatReport(report)}\n`);
  return report.damaged ? 1 : 0;
});
