// The descriptions of core/operations/training.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { nullable, TrainingView, CostView, GrantView, RewardView } from '../views/codecs.js';
import { objWithOptional, obj, PosInt, IdList } from '../codecs.js';
import { COST_ERRORS } from '../shared/growth.js';

/** A training slot: when it opens, and the training on-going in it (null when idle). */
export const TrainingSlotView = t.type(
  {
    slotId: t.number,
    openLevel: t.number,
    open: t.boolean,
    ongoing: t.boolean,
    training: nullable(TrainingView),
  },
  'TrainingSlot',
);
/** A training of master data, and whether the player's level allows it. */
export const TrainingDefinitionView = t.type(
  {
    trainingId: t.number,
    name: t.string,
    minPlayerLevel: t.number,
    available: t.boolean,
    durationMinutes: t.number,
    characterCount: t.number,
    classId: nullable(t.number),
    cost: CostView,
    rewards: t.array(GrantView),
    expPerCharacter: t.number,
  },
  'TrainingDefinition',
);
/** The exp a character really gained (capped by its level cap) and its level after. */
export const TrainingGainView = t.type(
  { managedCharacterId: t.number, exp: t.number, level: t.number },
  'TrainingGain',
);

// ---- get_list ----
export const getList = describeOp({
  name: 'getListPlayerTraining',
  method: 'POST',
  path: '/player/training/get_list',
  group: 'training',
  readOnly: true,
  summary:
    'Every training slot (open or closed by player level, on-going or not, with its training, characters and times) and the trainings.',
  request: objWithOptional({}, {}, 'GetListPlayerTrainingRequest'),
  response: t.type(
    { slots: t.array(TrainingSlotView), trainings: t.array(TrainingDefinitionView) },
    'GetListPlayerTrainingResponse',
  ),
  errors: [],
});

// ---- orders ----
export const orders = describeOp({
  name: 'ordersPlayerTraining',
  method: 'POST',
  path: '/player/training/orders',
  group: 'training',
  summary: 'Starts a training in an open, idle slot with owned characters not training elsewhere; pays its cost.',
  request: obj({ slotId: PosInt, trainingId: PosInt, managedCharacterIds: IdList(50) }, 'OrdersPlayerTrainingRequest'),
  response: t.type({ slotId: t.number, training: TrainingView }, 'OrdersPlayerTrainingResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'STATE_CONFLICT', ...COST_ERRORS],
});

// ---- cancel ----
export const cancel = describeOp({
  name: 'cancelPlayerTraining',
  method: 'POST',
  path: '/player/training/cancel',
  group: 'training',
  summary: 'Stops the training in a slot: no reward and no refund; the slot and characters are free again.',
  request: obj({ slotId: PosInt }, 'CancelPlayerTrainingRequest'),
  response: t.type({ slotId: t.number }, 'CancelPlayerTrainingResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

// ---- completes ----
export const completes = describeOp({
  name: 'completesPlayerTraining',
  method: 'POST',
  path: '/player/training/completes',
  group: 'training',
  summary:
    'Completes the training in a slot once its time has passed: gives its rewards (overflow to the present box) and exp to each character (capped), and frees the slot.',
  request: obj({ slotId: PosInt }, 'CompletesPlayerTrainingRequest'),
  response: t.type(
    { slotId: t.number, trainingId: t.number, rewards: t.array(RewardView), characters: t.array(TrainingGainView) },
    'CompletesPlayerTrainingResponse',
  ),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'TIMER_RUNNING'],
});

/** The group's descriptions, in the table's order. */
export const trainingApi = [cancel, completes, getList, orders] as const;
