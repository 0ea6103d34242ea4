// Verify on PostgreSQL: an answer made from states held in memory, without a commit, is given
// only while each of those players is still at the version held (another process may have
// moved one on). Verifies asked while others are out go together, one round trip for several
// (grouped-calls.ts): the players' versions read once, each verify checked against them.
import type { PlayerState } from '../../core/state.js';
import { GroupedCalls } from './grouped-calls.js';
import type { Prepared } from './postgres-query.js';
import type { Statements } from './postgres-statements.js';
import { READS } from './postgres-sessions.js';
import type { KnownStates } from './postgres-states.js';

export class Verifies {
  private readonly calls: GroupedCalls<PlayerState[], boolean>;

  constructor(
    private readonly query: Prepared,
    private readonly sql: Statements,
    private readonly states: KnownStates,
  ) {
    this.calls = new GroupedCalls((groups) => this.check(groups), READS);
  }

  /** Whether each of `states` is still its player's current version; one that is not is forgotten. */
  async verify(states: ReadonlyArray<PlayerState>): Promise<boolean> {
    const unsure = this.states.unsure(states);
    if (unsure.length === 0) return true;
    const ok = await this.calls.submit(unsure);
    if (!ok) for (const s of unsure) this.states.forget(s.playerId);
    return ok;
  }

  private async check(groups: PlayerState[][]): Promise<boolean[]> {
    const [only] = groups;
    if (groups.length === 1 && only) {
      const r = await this.query<{ n: number }>(
        this.sql.verify,
        [only.map((s) => s.playerId), only.map((s) => s.version)],
        'verify',
      );
      return [r.rows[0]?.n === only.length];
    }
    const ids = [...new Set(groups.flatMap((g) => g.map((s) => s.playerId)))];
    const r = await this.query<{ player_id: number; version: number }>(this.sql.versions, [ids], 'versions');
    const at = new Map(r.rows.map((x) => [x.player_id, x.version]));
    return groups.map((g) => g.every((s) => at.get(s.playerId) === s.version));
  }
}
