// THE IDENTITY CONTRACT: nothing reachable from a player state, and no view once
// built, is ever changed. A reducer that changes a part makes a new object for it
// (and for every object on the way to it) and keeps the parts it did not change;
// a view is built once from the parts it shows and never written to afterwards.
//
// Because of it, everything below may keep what it computed by the identity of
// what it computed it from, and be right for as long as that object lives:
//   - memoView, memoListView, identityMemo: a view kept by the state part it shows
//     (one master data at a time: another master empties the tables; a player's
//     views only while keepPlayerViews is on, with the answer cache, else the most
//     recent list views only, recentMemo);
//   - shared(), isShared(): a view marked here may have its serialised form kept by
//     its identity — the HTTP adapter's answer cache does (adapters/http/json.ts),
//     encoding an unchanged list once rather than on every answer that shows it;
//     common(), isCommon(): the same for a view every player is shown (master data's);
//   - outside the core, adapters/storage/canonical.ts keeps a state part's JSON and
//     a list's element digests by identity, and the journal writes only the fields
//     and list elements whose identity changed.
// A mutation anywhere would make all of these silently stale. It is guarded by
// test/core/never-mutated.test.ts: a session of operations over HTTP on states that
// are deep-frozen as they are stored, with every view deep-frozen as it is marked
// here (watchShared), so a write anywhere throws and fails the request.
import { walkReplaced } from '../state/replaced.js';

/** What a memoised view is built in: the master data it is kept for (ViewCtx, core/views/context.ts). */
interface MemoCtx {
  readonly master: object;
}

/**
 * A view is marked by a property no JSON, key list or spread sees (a symbol, not
 * enumerable), set as it is built. A WeakSet entry for each of ~100,000 views
 * cost 0.4–0.6 µs an insert, a 4 MB table, and its clearing in every full
 * collection's pause. Lists (state parts among them) and objects that cannot take
 * a property go to the WeakSet: they are few.
 */
const MARK = Symbol('shared');
const SHARED = new WeakSet<object>();
/** Views built from master data alone, the same for every player (few: a WeakSet). */
const COMMON = new WeakSet<object>();
/** Tests watch every marked view (to freeze it); nothing does in production. */
let watcher: ((v: object) => void) | undefined;
/**
 * Whether a player's views are kept (memoised by what they show) and marked, which
 * pays only when something keeps their JSON too: the HTTP adapter's answer cache,
 * when ANSWER_CACHE_MB > 0 (the adapter turns this on with it). Kept, the
 * views of 1,000 players in use are ~15 MB of live heap (a character's ~160 bytes,
 * the mark a property array of its own); not kept, a view is young garbage once
 * answered (docs/performance.md, memory, sixth look), but for the most recent list
 * views (recentMemo: a bounded few, issue 34). Off by default; which way it is
 * changes no answer.
 */
let keeping = false;
export const keepPlayerViews = (on: boolean): void => {
  keeping = on;
};

/** Marks a view as never to change: its serialised form may be kept by its identity. */
export const shared = <T extends object>(v: T): T => {
  if (keeping) {
    if (Array.isArray(v) || !Object.isExtensible(v)) SHARED.add(v);
    else Object.defineProperty(v, MARK, { value: true });
  }
  watcher?.(v);
  return v;
};
export const isShared = (v: object): boolean => MARK in v || SHARED.has(v) || COMMON.has(v);

/**
 * Marks a view built from master data alone and shown to every player (a gacha's
 * published rates): never to change, and its serialised form kept whatever the
 * answer cache's bound, since it is one for all players.
 */
export const common = <T extends object>(v: T): T => {
  COMMON.add(v);
  watcher?.(v);
  return v;
};
export const isCommon = (v: object): boolean => COMMON.has(v);

/** Calls `f` with every view marked from now on, until the returned function is called (the contract's test freezes them). */
export const watchShared = (f: (v: object) => void): (() => void) => {
  watcher = f;
  return () => {
    if (watcher === f) watcher = undefined;
  };
};

/**
 * A table kept by the identity of its keys, for one master data at a time: views
 * depend on it (names, the time zone), and a process serves one; meeting another
 * (a replay across master versions, a test) empties the table.
 */
export const identityMemo = <K extends object, V>() => {
  let master: object | undefined;
  let table = new WeakMap<K, V>();
  return {
    get(m: object, k: K): V | undefined {
      if (m !== master) {
        master = m;
        table = new WeakMap();
      }
      return table.get(k);
    },
    set(k: K, v: V): void {
      table.set(k, v);
    },
  };
};

/**
 * Memoises a view by the identity of what it shows (and the master data, for the
 * time zone). States are never mutated, so an unchanged object keeps its view and
 * a response re-formats only what an operation changed.
 */
export const memoView = <K extends object, V, C extends MemoCtx>(f: (x: K, ctx: C) => V): ((x: K, ctx: C) => V) => {
  const memo = identityMemo<K, V>();
  return (x, ctx) => {
    if (!keeping) {
      const fresh = f(x, ctx);
      // Not kept, not marked: shared() only shows it to a watcher (the contract's test).
      if (typeof fresh === 'object' && fresh !== null && !Array.isArray(fresh)) shared(fresh);
      return fresh;
    }
    let v = memo.get(ctx.master, x);
    if (v === undefined) {
      v = f(x, ctx);
      // Lists are not marked: a changed list is new on every change, and its elements are marked.
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) shared(v);
      memo.set(x, v);
    }
    return v;
  };
};

/**
 * Not kept (the default), a player's list views still live a while: the lists built
 * most recently, by their identity, up to `bound` elements a generation, two
 * generations (a list found in the older one moves to the newer). A player's next
 * operation usually comes before the bound is spent (a session draws again and
 * again): its answer then builds the views of what changed only, not of every
 * character again, which a seasoned player's draw spent most of its time on
 * (docs/performance.md, issue 34). Weak: a list no state holds any more takes its
 * views with it.
 */
export const recentMemo = <K extends object, V>(bound: number, weight: (v: V) => number) => {
  let master: object | undefined;
  let young = new WeakMap<K, V>();
  let old = new WeakMap<K, V>();
  let filled = 0;
  const set = (k: K, v: V): void => {
    const w = weight(v);
    if (filled + w > bound) {
      old = young;
      young = new WeakMap();
      filled = 0;
    }
    young.set(k, v);
    filled += w;
  };
  return {
    get(m: object, k: K): V | undefined {
      if (m !== master) {
        master = m;
        young = new WeakMap();
        old = new WeakMap();
        filled = 0;
      }
      const v = young.get(k);
      if (v !== undefined) return v;
      const o = old.get(k);
      if (o !== undefined) set(k, o);
      return o;
    },
    set,
  };
};

/**
 * Elements whose views a list view's recent table holds, a generation: four full
 * character lists (at most 500 each); two generations of character views are at most
 * ~0.5 MB (10,000 measured 1.2 MB of heap). Exported for the test of the bound.
 */
export const RECENT_ELEMENTS = 2000;

/**
 * A list view built from per-item views, itself memoised by the list: kept while
 * the list lives (keepPlayerViews), else among the recent ones (recentMemo). Given the
 * list it replaced (an operation's state before), elements still there take their
 * views from that list's view: lists keep their order, so the two are walked side
 * by side, stepping over one removed element at a time. Only a list seen without
 * such a predecessor (a first read) looks its elements up one by one.
 */
export const memoListView = <T extends object, V, C extends MemoCtx>(f: (x: T, ctx: C) => V) => {
  const one = memoView(f);
  const kept = identityMemo<ReadonlyArray<T>, V[]>();
  const recent = recentMemo<ReadonlyArray<T>, V[]>(RECENT_ELEMENTS, (v) => v.length + 1);
  return (xs: ReadonlyArray<T>, ctx: C, replaced?: ReadonlyArray<T>): V[] => {
    const memo = keeping ? kept : recent;
    const known = memo.get(ctx.master, xs);
    if (known !== undefined) return known;
    const prev = replaced === undefined ? undefined : memo.get(ctx.master, replaced);
    const out = new Array<V>(xs.length);
    if (prev === undefined || replaced === undefined) {
      for (let i = 0; i < xs.length; i++) out[i] = one(xs[i] as T, ctx);
    } else {
      walkReplaced(xs, replaced, (i, j) => {
        if (j >= 0) {
          out[i] = prev[j] as V;
          return;
        }
        // New or changed in place: its view is built here and kept only in this list's view
        // (the next change finds it there), which spares a lookup table entry per change.
        const v = f(xs[i] as T, ctx);
        if (typeof v === 'object' && v !== null && !Array.isArray(v)) shared(v);
        out[i] = v;
      });
    }
    memo.set(xs, out);
    return out;
  };
};
