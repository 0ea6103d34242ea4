// Views and state parts shown as they are and never changed once built (states are
// never mutated; memoised views are kept by identity). An adapter may keep their
// serialised form by identity: the HTTP adapter does, so an unchanged list is
// encoded once, not on every answer that shows it.
const SHARED = new WeakSet<object>();

export const shared = <T extends object>(v: T): T => { SHARED.add(v); return v; };
export const isShared = (v: object): boolean => SHARED.has(v);
