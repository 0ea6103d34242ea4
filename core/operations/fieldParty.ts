// fieldParty: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const fieldPartyOps: AnyOperation[] = [
  notYet('getAllPlayerFieldPartyMember', 'GET', '/player/field_party/member/get_all', 'fieldParty', 'Characters living in the town with their hourly schedules.'),
  notYet('removeAllPlayerFieldPartyMember', 'POST', '/player/field_party/member/remove_all', 'fieldParty', 'Makes the specified characters stop living in the town.'),
];
