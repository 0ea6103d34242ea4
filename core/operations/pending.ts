// A table entry for a spec operation whose rules are not built yet: routed,
// documented, and answered with NOT_IMPLEMENTED (HTTP 501) until its issue lands.
import * as t from 'io-ts';
import { defineOp, type AnyOperation } from '../operation.js';

export const notYet = (name: string, method: 'GET' | 'POST', path: string, group: string, summary: string): AnyOperation =>
  defineOp({
    name, method, path, group, summary, access: 'session',
    request: t.unknown, response: t.unknown, errors: ['NOT_IMPLEMENTED'], reduce: null,
  });
