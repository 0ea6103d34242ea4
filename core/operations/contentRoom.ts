// Content rooms: one per title, appearing when the player first owns a character
// of that title; up to a master-data number of its characters live there.
import * as t from 'io-ts';
import { PosInt, obj } from '../codecs.js';
import { implementOp } from '../operation.js';
import { fail, ok } from '../shared/result.js';
import { openRoom, putRoomState, roomState } from '../shared/town.js';
import * as api from '../api/contentRoom.js';

const getAllMember = implementOp(api.getAllMember, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const room = openRoom(m, s, req.contentRoomId);
    if (room._tag === 'Left') return room;
    const st = roomState(s, req.contentRoomId);
    const members = st.managedCharacterIds.map((id) => ({
      managedCharacterId: id,
      characterId: s.characters.find((c) => c.managedCharacterId === id)?.characterId ?? 0,
    }));
    return ok({
      state: s,
      response: { contentRoomId: req.contentRoomId, capacity: room.right.capacity, isNew: !st.shown, members },
    });
  },
});

const setAllMember = implementOp(api.setAllMember, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const room = openRoom(m, s, req.contentRoomId);
    if (room._tag === 'Left') return room;
    const ids = req.managedCharacterIds;
    const { capacity, titleId } = room.right;
    if (ids.length > capacity)
      return fail('INVALID_PARAMETERS', {
        field: 'managedCharacterIds',
        reason: `content room ${req.contentRoomId} holds at most ${capacity} characters`,
      });
    if (new Set(ids).size !== ids.length)
      return fail('INVALID_PARAMETERS', { field: 'managedCharacterIds', reason: 'names a character twice' });
    for (const id of ids) {
      const c = s.characters.find((x) => x.managedCharacterId === id);
      if (!c) return fail('NOT_FOUND', { entity: 'character', id });
      if (m.character.get(c.characterId)?.titleId !== titleId)
        return fail('INVALID_PARAMETERS', {
          field: 'managedCharacterIds',
          reason: `character ${id} is not of title ${titleId}`,
        });
    }
    // A character lives in one room at most: joining this one leaves any other.
    const joining = new Set(ids);
    let state = s;
    for (const other of s.contentRooms) {
      // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent (the skip is a shortcut: a room without a joining character filters to the same residents, and this room is set whole below; the ConditionalExpression 'true' here is killed)
      if (other.contentRoomId === req.contentRoomId || !other.managedCharacterIds.some((x) => joining.has(x))) continue;
      state = putRoomState(state, {
        ...other,
        managedCharacterIds: other.managedCharacterIds.filter((x) => !joining.has(x)),
      });
    }
    state = putRoomState(state, { ...roomState(state, req.contentRoomId), managedCharacterIds: [...ids] });
    return ok({ state, response: { contentRoomId: req.contentRoomId, managedCharacterIds: ids } });
  },
});

const setShown = implementOp(api.setShown, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const room = openRoom(m, s, req.contentRoomId);
    if (room._tag === 'Left') return room;
    const st = roomState(s, req.contentRoomId);
    // Already shown: nothing changes.
    const state = st.shown ? s : putRoomState(s, { ...st, shown: true });
    return ok({ state, response: { contentRoomId: req.contentRoomId } });
  },
});

export const contentRoomOps = [getAllMember, setAllMember, setShown] as const;
