// The operator's routes on a player's own data (docs/privacy.md; the operations are listed
// in admin-player-data-ops.ts): the export, the player's stored state as a versioned document
// (core/player-document.ts), and the import of such a document, read as strictly as a
// stored state, as a new player or, confirmed with overwrite, over the same one. Both run
// through the operator's service: the import is a table entry on the commit path.
import { requestError } from '../../core/codecs.js';
import { gameError, type GameError } from '../../core/errors.js';
import { documentOf, readDocument } from '../../core/player-document.js';
import { E } from '../../core/shared/result.js';
import { contextAt } from '../service/context.js';
import type { OperatorService } from '../service/operator.js';
import { ImportRequest } from './admin-player-data-ops.js';

type Refusal = GameError | { readonly noSuchPlayer: number };
type Answer = E.Either<Refusal, Record<string, unknown>>;
interface DataCtx {
  readonly state: object;
  readonly params: Record<string, string | undefined>;
  readonly request: unknown;
}

/** What the routes need of the admin router. */
export interface PlayerDataRouteDeps {
  readonly route: (name: string, handler: (ctx: DataCtx) => Promise<Answer>) => void;
  readonly operator: OperatorService;
  readonly nowOf: (ctx: DataCtx) => number;
  /** The game data's version in force at an instant (the document names it). */
  readonly masterVersionAt: (now: number) => string;
}

const invalid = (field: string, reason: string): Answer => E.left(gameError('INVALID_PARAMETERS', { field, reason }));

export const playerDataRoutes = ({ route, operator, nowOf, masterVersionAt }: PlayerDataRouteDeps): void => {
  route('adminExportPlayer', async (ctx) => {
    const raw = ctx.params['playerId'] ?? '';
    const id = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : undefined;
    if (id === undefined) return invalid('playerId', 'must be a positive integer');
    const s = await operator.readPlayer(id);
    if (!s) return E.left({ noSuchPlayer: id });
    const now = nowOf(ctx);
    return E.right(documentOf(s, now, masterVersionAt(now)));
  });

  route('adminImportPlayer', async (ctx) => {
    const d = ImportRequest.decode((ctx.request as { body?: unknown }).body ?? {});
    if (d._tag === 'Left') return E.left(requestError(d.left));
    const { document, overwrite = false, uuid } = d.right;
    if (document === undefined) return E.left(gameError('INSUFFICIENT_PARAMETERS', { field: 'document' }));
    if (overwrite && uuid !== undefined)
      return invalid('uuid', 'binds a new player: an overwrite keeps the account as it is');
    const doc = readDocument(document);
    if (E.isLeft(doc)) return invalid(`document.${doc.left.field}`, doc.left.reason);
    const requestId = (ctx.state as { requestId?: string }).requestId;
    const r = await operator.importPlayer(
      doc.right.state,
      { overwrite, ...(uuid === undefined ? {} : { uuid }) },
      contextAt(nowOf(ctx), requestId === undefined ? {} : { requestId }),
    );
    if (E.isLeft(r)) return E.left(r.left.code === 'PLAYER_NOT_FOUND' ? { noSuchPlayer: doc.right.playerId } : r.left);
    return E.right({ ...r.right, overwritten: overwrite });
  });
};
