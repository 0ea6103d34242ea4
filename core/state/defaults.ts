import type * as t from 'io-ts';

/** The default value of every field a group adds: one value per prop, typed by its codec. */
export type Defaults<P extends t.Props> = { [K in keyof P]: t.TypeOf<P[K]> };
