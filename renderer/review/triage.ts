// Keyboard triage of the review queue: every row (a cause group's header or a flagged fact)
// registers what it does (open, dismiss, delete, its fact ids); the queue moves a cursor over the
// rows in the order they are on screen and runs the current row's action for j/k, x, d, Delete
// and Enter, as the memories table does for its rows.
import { createContext, useContext, useEffect, useRef } from 'react';

export interface TriageActions {
  /** The facts this row stands for (a group: all of its flags). */
  readonly factIds: () => Promise<readonly string[]> | readonly string[];
  readonly open: () => void;
  readonly dismiss: () => void;
  readonly remove: () => void;
  /** Groups only: show or hide their facts. */
  readonly expand?: (on: boolean) => void;
}

export type TriageRegistry = Map<string, TriageActions>;
export const TriageContext = createContext<TriageRegistry | null>(null);

/** The attribute rows carry; its value is the row's key. */
export const ROW_ATTR = 'data-triage-row';
export const groupRowKey = (causeFactId: string | null): string => `g:${causeFactId ?? ''}`;
export const factRowKey = (factId: string): string => `f:${factId}`;

/** Registers a row's actions for as long as it is mounted (the latest render's closures). */
export function useTriageRow(key: string, actions: TriageActions): void {
  const registry = useContext(TriageContext);
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    if (!registry) return;
    const proxy: TriageActions = {
      factIds: () => ref.current.factIds(),
      open: () => ref.current.open(),
      dismiss: () => ref.current.dismiss(),
      remove: () => ref.current.remove(),
      expand: (on) => ref.current.expand?.(on),
    };
    registry.set(key, proxy);
    return () => {
      if (registry.get(key) === proxy) registry.delete(key);
    };
  }, [registry, key]);
}

/** Row keys in screen order. */
export function rowKeysIn(container: HTMLElement | null): string[] {
  if (!container) return [];
  return [...container.querySelectorAll<HTMLElement>(`[${ROW_ATTR}]`)].map((el) => el.getAttribute(ROW_ATTR) ?? '');
}

/** The key `delta` rows from `current` (clamped; from nowhere, the first or last row). */
export function stepKey(keys: readonly string[], current: string | null, delta: number): string | null {
  if (keys.length === 0) return null;
  const at = current === null ? -1 : keys.indexOf(current);
  if (at < 0) return delta >= 0 ? (keys[0] ?? null) : (keys[keys.length - 1] ?? null);
  return keys[Math.min(keys.length - 1, Math.max(0, at + delta))] ?? null;
}

/** The fact ids between two fact rows, both included, in screen order (a Shift-click range). */
export function factRange(keys: readonly string[], fromFact: string, toFact: string): string[] {
  const facts = keys.filter((k) => k.startsWith('f:')).map((k) => k.slice(2));
  const a = facts.indexOf(fromFact);
  const b = facts.indexOf(toFact);
  if (a < 0 || b < 0) return [toFact];
  return facts.slice(Math.min(a, b), Math.max(a, b) + 1);
}
