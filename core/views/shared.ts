// Views and state parts shown as they are and never changed once built (states are
// never mutated; memoised views are kept by identity). An adapter may keep their
// serialised form by identity: the HTTP adapter does, so an unchanged list is
// encoded once, not on every answer that shows it.

/**
 * A view is marked by a property no JSON, key list or spread sees (a symbol, not
 * enumerable), set as it is built. A WeakSet entry for each of ~100,000 views
 * cost 0.4–0.6 µs an insert, a 4 MB table, and its clearing in every full
 * collection's pause. Lists (state parts among them) and objects that cannot take
 * a property go to the WeakSet: they are few.
 */
const MARK = Symbol('shared');
const SHARED = new WeakSet<object>();

export const shared = <T extends object>(v: T): T => {
  if (Array.isArray(v) || !Object.isExtensible(v)) SHARED.add(v);
  else Object.defineProperty(v, MARK, { value: true });
  return v;
};
export const isShared = (v: object): boolean => MARK in v || SHARED.has(v);
