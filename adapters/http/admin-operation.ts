// An admin route's description, as the admin tables list it (admin-operations.ts and
// the tables it joins): the router, the OpenAPI document and the console's checks read it.
import type * as t from 'io-ts';
import type { ErrorName } from '../../core/errors.js';
import type { Permission } from '../operators/roles.js';

/** An admin route as the OpenAPI document shows it. */
export interface AdminOperation {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The full path, `:name` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly pathParameters?: Readonly<Record<string, t.Mixed>>;
  /** Query parameters, each optional. */
  readonly queryParameters?: Readonly<Record<string, { readonly codec: t.Mixed; readonly description: string }>>;
  readonly request?: t.Mixed;
  readonly response: t.Mixed;
  /** The errors it can answer with besides the missing or wrong token (401, 203). */
  readonly errors: ReadonlyArray<ErrorName>;
  /** A write: logged (admin.action) and kept in the audit trail with what it did. */
  readonly writes?: boolean;
  /** What the caller's role must allow (adapters/operators/roles.ts). */
  readonly needs: Permission;
  /** Logged (admin.action) and audited although it changes nothing: it hands a player's data out. */
  readonly audited?: boolean;
  /** What admin.action logs of the request and the answer, where not all of it (a player's data, a secret). */
  readonly logged?: {
    readonly request?: (body: unknown) => unknown;
    readonly answer?: (answer: Record<string, unknown>) => unknown;
  };
}
