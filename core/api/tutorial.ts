// The descriptions of core/operations/tutorial.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, Int, PosInt } from '../codecs.js';
import * as t from 'io-ts';
import { BattlePartyView } from '../views/codecs.js';

export const stepAdd = describeOp({
  name: 'addPlayerTutorialStep',
  method: 'POST',
  path: '/player/tutorial/step/add',
  group: 'tutorial',
  summary:
    'Records tutorial progress; steps only move forward; the last step (5, the party set) or -1 finishes the tutorial.',
  request: obj({ stepCode: Int }, 'AddPlayerTutorialStepRequest'),
  response: t.type({ stepCode: t.number }, 'AddPlayerTutorialStepResponse'),
  errors: ['INVALID_PARAMETERS'],
});

export const tipAdd = describeOp({
  name: 'addPlayerTutorialTip',
  method: 'POST',
  path: '/player/tutorial/tip/add',
  group: 'tutorial',
  summary: 'Records a tip as shown.',
  request: obj({ tipId: PosInt }, 'AddPlayerTutorialTipRequest'),
  response: t.type({ tipIds: t.array(t.number) }, 'AddPlayerTutorialTipResponse'),
  errors: ['INVALID_PARAMETERS'],
});

// Stryker restore ArithmeticOperator
export const partySet = describeOp({
  name: 'setPlayerTutorialParty',
  method: 'POST',
  path: '/player/tutorial/party/set',
  group: 'tutorial',
  summary:
    "The tutorial's party set: fills battle party 1, when it has no character, with the player's best characters (highest rarity first, up to 5, no weapons) and records the step (5 finishes the tutorial). Answers every battle party, changed or not.",
  request: obj({ stepCode: Int }, 'SetPlayerTutorialPartyRequest'),
  response: t.type(
    {
      /** The tutorial step after the request (-1: finished). */
      stepCode: t.number,
      /** The party the tutorial set (1). */
      managedBattlePartyId: t.number,
      /** The characters placed now; empty when the party already had characters (kept as the player arranged it) or none are owned. */
      managedCharacterIds: t.array(t.number),
      /** Every battle party, changed or not (the original's clients read managedBattleParties[0] from this answer). */
      managedBattleParties: t.array(BattlePartyView),
    },
    'SetPlayerTutorialPartyResponse',
  ),
  errors: ['INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const tutorialApi = [stepAdd, tipAdd, partySet] as const;
