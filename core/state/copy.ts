// State copies. Every copy on a hot path goes through withFields, so states share
// one hidden class: V8 gives each object spread site its own, and helpers that meet
// more than four of them (tryGrant, the runner) fall off their fast path.
import type { PlayerState } from '../state.js';

/** A field-by-field copy in the codec's order (test/core/views-memo.test.ts checks it names every field). */
const copy = (s: PlayerState): PlayerState => ({
  schema: s.schema, version: s.version, playerId: s.playerId, name: s.name, myCode: s.myCode,
  createdAt: s.createdAt, lastLoginAt: s.lastLoginAt, account: s.account, level: s.level, exp: s.exp,
  stamina: s.stamina, gold: s.gold, gem: s.gem, paidGem: s.paidGem, kirara: s.kirara,
  limitAdds: s.limitAdds, nextManagedId: s.nextManagedId, items: s.items, characters: s.characters,
  weapons: s.weapons, facilities: s.facilities, roomObjects: s.roomObjects, presents: s.presents,
  received: s.received, gachaStats: s.gachaStats, gachaHistory: s.gachaHistory, move: s.move,
  tutorial: s.tutorial, counters: s.counters, supportParties: s.supportParties, abilityTrees: s.abilityTrees,
  trainings: s.trainings, tradeCounts: s.tradeCounts, ownWeaponsReceived: s.ownWeaponsReceived,
  rooms: s.rooms, townLayout: s.townLayout, contentRooms: s.contentRooms, battleParties: s.battleParties,
  friends: s.friends, achievements: s.achievements, displayedAchievementId: s.displayedAchievementId,
  activeQuest: s.activeQuest, questRecords: s.questRecords, chests: s.chests, offers: s.offers,
  offerCompletions: s.offerCompletions,
});

/** The state with some fields replaced (a new object; the given state is not changed). */
export const withFields = (s: PlayerState, fields: Partial<PlayerState>): PlayerState => Object.assign(copy(s), fields);
