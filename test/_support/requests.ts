// Plausible requests for any table operation, generated from its published schema
// (the same one /api/openapi.json serves), with managed ids taken from a player.
import { schemaOf } from '../../adapters/http/json-schema.js';
import type { AnyOperation } from '../../core/operation.js';

type Schema = Record<string, unknown>;

/** Managed ids a player owns, by kind, to fill managed-id fields with. */
export interface Owned {
  readonly character: number;
  readonly weapon: number;
  readonly facility: number;
  readonly roomObject: number;
  readonly present: number;
}

export const ownedOf = (all: Record<string, unknown>, presents: Array<{ managedPresentId: number }>): Owned => {
  const first = (key: string, id: string) => ((all[key] as Array<Record<string, number>>)[0] ?? {})[id] ?? 0;
  return {
    character: first('managedCharacters', 'managedCharacterId'),
    weapon: first('managedWeapons', 'managedWeaponId'),
    facility: first('managedTownFacilities', 'managedTownFacilityId'),
    roomObject: first('managedRoomObjects', 'managedRoomObjectId'),
    present: presents[0]?.managedPresentId ?? 0,
  };
};

/** The owned id a field names, if it is a managed-id field (battle parties are fixed 1-15, not owned ids). */
export const managedKind = (field: string): keyof Owned | null => {
  if (/^managedCharacterIds?$/.test(field)) return 'character';
  if (/^managedWeaponIds?$/.test(field)) return 'weapon';
  if (/^managedTownFacilityIds?$/.test(field)) return 'facility';
  if (/^managedRoomObjectIds?$/.test(field)) return 'roomObject';
  if (/^managedPresentIds?$/.test(field)) return 'present';
  return null;
};

const valueFor = (field: string, s: Schema, owned: Owned): unknown => {
  const kind = managedKind(field);
  if (s['anyOf']) return valueFor(field, (s['anyOf'] as Schema[])[0] ?? {}, owned);
  if (s['type'] === 'object') return objectFor(s, owned);
  if (s['type'] === 'array') return [valueFor(field, (s['items'] as Schema) ?? {}, owned)];
  if (kind) return s['type'] === 'string' ? String(owned[kind]) : owned[kind];
  if (field === 'stepCode') return 0; // 0 records no tutorial step
  if (s['type'] === 'integer') return typeof s['minimum'] === 'number' ? Math.max(s['minimum'], 1) : 1;
  if (s['type'] === 'boolean') return false;
  if (s['type'] === 'string') {
    if (s['format'] === 'uuid') return '66666666-7777-4888-8999-aaaaaaaaaaaa';
    if (typeof s['description'] === 'string' && /comma-separated/.test(s['description'])) return '1';
    return 'x'.repeat(Math.max(1, Number(s['minLength'] ?? 1)));
  }
  if (s['const'] !== undefined) return s['const'];
  if (Array.isArray(s['enum'])) return s['enum'][0];
  return 1;
};

const objectFor = (s: Schema, owned: Owned): Record<string, unknown> => {
  const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
  return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(k, v, owned)]));
};

/** A request for the operation with every field given a plausible value. */
export const plausibleRequest = (op: AnyOperation, owned: Owned): Record<string, unknown> =>
  objectFor(schemaOf(op.request), owned);

/** The fields of an operation's request (top level) with their schemas and whether required. */
export const fieldsOf = (op: AnyOperation): Array<{ name: string; schema: Schema; required: boolean }> => {
  const s = schemaOf(op.request);
  const props = (s['properties'] as Record<string, Schema> | undefined) ?? {};
  const required = new Set((s['required'] as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
};

/** A request as a GET query string or a POST body. */
export const asQuery = (req: Record<string, unknown>): string =>
  Object.entries(req)
    .filter(([, v]) => v !== undefined)
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
    )
    .join('&');
