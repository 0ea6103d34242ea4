// The crash at the end of the soak: SIGKILL, a start on the same data, the check
// of every acknowledged write (check.ts), then SIGTERM, which must end the
// restarted server cleanly (exit 0: it checkpoints and stops).
import { checkAfterRestart, type Baseline, type CheckResult } from './check.js';
import { admin as adminOf } from './http.js';
import type { Ledger, SignedUp } from './ledger.js';
import { ADMIN_TOKEN, SALT, type Stack } from './stack.js';

export const crashAndCheck = async (
  stack: Stack,
  players: ReadonlyArray<{ readonly ledger: Ledger; readonly base: Baseline }>,
  signups: ReadonlyArray<SignedUp>,
  log: (line: string) => void,
): Promise<CheckResult> => {
  log('SIGKILL to the server; starting it again on the same data');
  await stack.stop('SIGKILL');
  let restartMs = 0;
  let check: CheckResult;
  try {
    restartMs = await stack.start();
    log(`restarted in ${Math.round(restartMs)} ms; checking ${players.length} players and ${signups.length} sign-ups`);
    check = await checkAfterRestart(stack.url, SALT, adminOf(stack.url, ADMIN_TOKEN), players, signups);
    if (stack.died !== null)
      check = { ...check, passed: false, problems: [...check.problems, `during the check, ${stack.died}`] };
    else {
      const code = await stack.stop('SIGTERM');
      if (code !== 0)
        check = {
          ...check,
          passed: false,
          problems: [
            ...check.problems,
            `the restarted server exited ${code} on SIGTERM (its stderr ends: ${stack.stderrEnd() || 'nothing'})`,
          ],
        };
    }
  } catch (e) {
    check = {
      passed: false,
      summary: [],
      problems: [`the restart failed: ${e instanceof Error ? e.message : String(e)}`],
    };
  }
  return { ...check, summary: [`restarted after the SIGKILL in ${Math.round(restartMs)} ms`, ...check.summary] };
};
