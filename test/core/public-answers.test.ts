// The public entries (no session: the version check, the quest chapters) answer
// exactly what they declare, with the strict check the HTTP tests make of every
// answer: `ok` checks a session's operation this way; these run on no player (the
// unborn state of id 0), which they must leave as it was.
import test from 'ava';
import { answerProblems } from '../../core/answer-check.js';
import { accessOf, execute } from '../../core/operation.js';
import { answerCodec } from '../../core/operation.js';
import { unbornPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { master, NOW } from '../_support/core.js';

/** A request each public entry takes, and what its answer must hold besides its shape. */
const SAMPLES: Readonly<
  Record<string, { readonly request: unknown; readonly holds: (answer: Record<string, unknown>) => boolean }>
> = {
  getAppVersion: {
    request: { platform: 1, version: '1.0.3' },
    holds: (a) => typeof a['abVer'] === 'number' && a['platform'] === 1,
  },
  // Given no notices (the service gives those in force), an empty list.
  getAllNotice: { request: {}, holds: (a) => Array.isArray(a['notices']) && a['notices'].length === 0 },
  getAllQuestChapter: {
    request: {},
    holds: (a) =>
      Array.isArray(a['questChapters']) &&
      a['questChapters'].length > 0 &&
      a['questChapters'].every((c: { questIds?: unknown }) => Array.isArray(c.questIds) && c.questIds.length > 0),
  },
};

test('every public entry answers exactly its declared answer (nothing undeclared, nothing missing)', (t) => {
  const publics = OPERATIONS.filter((o) => accessOf(o) === 'public');
  t.deepEqual(publics.map((o) => o.name).sort(), Object.keys(SAMPLES).sort(), 'a sample for each public entry');
  for (const op of publics) {
    const sample = SAMPLES[op.name];
    if (sample === undefined) {
      t.fail(`${op.name}: no sample`);
      continue;
    }
    const decoded = op.request.decode(sample.request);
    if (decoded._tag === 'Left') {
      t.fail(`${op.name}: its sample request does not decode`);
      continue;
    }
    const no = unbornPlayer(0);
    const r = execute(op, no, decoded.right, rngFromSeed('public'), NOW, { master: master(), others: [] });
    if (r._tag === 'Left') {
      t.fail(`${op.name} failed with ${r.left.code}`);
      continue;
    }
    t.is(r.right.state, no, `${op.name} changes no state`);
    t.false(r.right.changed, op.name);
    const answer = JSON.parse(JSON.stringify(r.right.response)) as Record<string, unknown>;
    t.deepEqual(answerProblems(answerCodec(op), answer), [], op.name);
    t.true(sample.holds(answer), `${op.name}: ${JSON.stringify(answer).slice(0, 200)}`);
  }
});
