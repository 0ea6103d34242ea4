// Wire views of the collections the progression group adds: each appears in get_all and,
// when an operation changes it, in that operation's response.
import type { ViewCtx } from './context.js';
import { collection, type CollectionView } from './codecs.js';
import { formatTime } from '../time.js';

// Not view.ts's timeText: view.ts imports this module, so a value import back would be a cycle.
const timeText = (ctx: ViewCtx, ms: number): string => formatTime(ms, ctx.master.game.timezoneOffsetMinutes);

export const progressionCollections: ReadonlyArray<CollectionView> = [
  collection({
    wire: 'supportParties',
    changed: (a, b) => a.supportParties !== b.supportParties,
    view: (s) =>
      s.supportParties.map((p, i) => ({
        supportPartyNo: i + 1,
        name: p.name,
        managedCharacterIds: p.managedCharacterIds,
      })),
  }),
  collection({
    wire: 'managedAbilityTrees',
    changed: (a, b) => a.abilityTrees !== b.abilityTrees,
    view: (s) => s.abilityTrees,
  }),
  collection({
    wire: 'managedTrainings',
    changed: (a, b) => a.trainings !== b.trainings,
    view: (s, ctx) =>
      s.trainings.map((x) => ({
        ...x,
        startedAt: timeText(ctx, x.startedAt),
        completesAt: timeText(ctx, x.completesAt),
        completed: ctx.now >= x.completesAt,
      })),
  }),
  collection({
    wire: 'tradeCounts',
    changed: (a, b) => a.tradeCounts !== b.tradeCounts,
    view: (s) => s.tradeCounts,
  }),
  collection({
    wire: 'ownWeaponsReceived',
    changed: (a, b) => a.ownWeaponsReceived !== b.ownWeaponsReceived,
    view: (s) => s.ownWeaponsReceived,
  }),
];
