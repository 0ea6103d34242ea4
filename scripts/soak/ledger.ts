// What the soak knows each player's state must hold: its acknowledged writes, and
// those whose outcome is unknown (no answer, or a 5xx: they may or may not have
// been applied), so that the check after the restart can say what must be there.
import type { CallResult, HoshiClient, Json, OperationName } from '../../client/index.js';

/** An acknowledged POST and its Idempotency-Key: resent after the restart, it must get this answer back. */
export interface Keyed {
  readonly operation: OperationName;
  readonly request: Json;
  readonly key: string;
  /** The answer without the envelope, as the typed client gave it. */
  readonly value: Json;
  /** Sends the same request again with the given key, through the operation's typed method. */
  readonly resend: (c: HoshiClient, key: string) => Promise<CallResult<OperationName>>;
}

/** The last draws kept for the history check (the server keeps 3,000; these are the newest). */
const RECENT_DRAWS = 20;

export class Ledger {
  readonly draws = { acked: 0, unknown: 0, recent: [] as number[][] };
  readonly sales = { acked: 0, unknown: 0 };
  /** Present ids believed to be in the box and not yet asked for, newest first (refreshed from each receive's answer). */
  box: number[];
  readonly received: number[] = [];
  readonly receivedUnknown: number[] = [];
  /** By battle party: the last acknowledged name, and names sent after it whose outcome is unknown. */
  readonly names = new Map<number, { acked: string | null; unknown: string[] }>();
  nameSeq = 0;
  /**
   * The friend requests: proposals and cancellations alternate over the filler players. `target` is the
   * last one asked and `expect` its acknowledged relation; `unsure` the targets whose relation a request
   * of unknown outcome left unknown (until an acknowledged one settles it).
   */
  readonly friend = {
    step: 0,
    target: null as number | null,
    expect: 'none' as 'none' | 'proposed',
    unsure: new Set<number>(),
    acked: 0,
  };
  /** The last acknowledged keyed POSTs, newest last. */
  readonly keyed: Keyed[] = [];

  constructor(
    readonly playerId: number,
    readonly index: number,
    box: ReadonlyArray<number>,
    private readonly keep: number,
  ) {
    this.box = [...box];
  }

  draw(characterIds: number[]): void {
    this.draws.acked++;
    this.draws.recent.push(characterIds);
    if (this.draws.recent.length > RECENT_DRAWS) this.draws.recent.shift();
  }

  named(partyId: number, name: string, outcome: 'acked' | 'unknown'): void {
    const n = this.names.get(partyId) ?? { acked: null, unknown: [] };
    // Requests of one player are answered in order: an acknowledged name replaces whatever came before it.
    if (outcome === 'acked') this.names.set(partyId, { acked: name, unknown: [] });
    else this.names.set(partyId, { ...n, unknown: [...n.unknown, name] });
  }

  keyedAcked(k: Keyed): void {
    if (this.keep === 0) return;
    this.keyed.push(k);
    if (this.keyed.length > this.keep) this.keyed.shift();
  }
}

/** A player signed up during the run, and what of it was acknowledged. */
export interface SignedUp {
  readonly playerId: number;
  readonly uuid: string;
  received: number[];
  tip: boolean;
}
