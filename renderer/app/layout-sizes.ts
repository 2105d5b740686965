// Sizes the user gave the panes and table columns by dragging (or keying) a splitter, kept in
// localStorage so a reload, or the next launch, lays the inspector out the same way. A size
// that was never set is null: the layout's own default applies.
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore, type RefObject } from 'react';

const STORAGE_KEY = 'statelens.layout';

type Sizes = Readonly<Record<string, number>>;

let cache: Sizes | null = null;
const listeners = new Set<() => void>();

function load(): Sizes {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(STORAGE_KEY) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    // A hand-edited or older entry may hold anything: only positive finite numbers count.
    return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === 'number' && Number.isFinite(e[1]) && e[1] > 0));
  } catch {
    return {};
  }
}

function snapshot(): Sizes {
  cache ??= load();
  return cache;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Sets (a number) or forgets (null) one size, for this window and the next load. */
export function setLayoutSize(name: string, px: number | null): void {
  const current = snapshot();
  if (px === null ? !(name in current) : current[name] === px) return;
  const next: Record<string, number> = { ...current };
  if (px === null) delete next[name];
  else next[name] = px;
  cache = next;
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
  } catch {
    // Storage refused (private window, quota): the size still holds until the page reloads.
  }
  for (const l of listeners) l();
}

/** One stored size with its setter and its reset (back to the layout's default). */
export function useLayoutSize(name: string): [number | null, (px: number) => void, () => void] {
  const sizes = useSyncExternalStore(subscribe, snapshot, snapshot);
  const set = useCallback((px: number) => setLayoutSize(name, px), [name]);
  const reset = useCallback(() => setLayoutSize(name, null), [name]);
  return [sizes[name] ?? null, set, reset];
}

/** Every stored size whose name starts with `prefix`, keyed by the rest of the name. */
export function useLayoutSizesUnder(prefix: string): Readonly<Record<string, number>> {
  const sizes = useSyncExternalStore(subscribe, snapshot, snapshot);
  return useMemo(
    () => Object.fromEntries(Object.entries(sizes).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v] as const] : []))),
    [sizes, prefix],
  );
}

export function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, value)));
}

/** The width an element has now, following it as it changes; `fallback` until it is measured
 * (and where nothing measures, as in jsdom). */
export function useElementWidth(ref: RefObject<HTMLElement | null>, fallback: number): number {
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const w = el.getBoundingClientRect().width;
      if (w > 0) setWidth(w);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
