// State that outlives the view showing it: a view that is left (another view, a fact opened from
// it) and revisited finds its inputs and results as it left them. Keys name the owner and its
// scope (for example the partition), so each partition keeps its own.
import { createContext, useCallback, useContext, useReducer, useRef, type Dispatch, type ReactNode, type SetStateAction } from 'react';

type Store = Map<string, unknown>;

const KeptStateContext = createContext<Store | null>(null);

export function KeptStateProvider({ children }: { children: ReactNode }) {
  const store = useRef<Store>(new Map());
  return <KeptStateContext.Provider value={store.current}>{children}</KeptStateContext.Provider>;
}

/** Like useState, but the value lives in the surrounding KeptStateProvider under `key`: it
 * survives unmounting, and an update that lands after unmounting (a slow request) is kept too. */
export function useKeptState<T>(key: string, initial: T | (() => T)): [T, Dispatch<SetStateAction<T>>] {
  const store = useContext(KeptStateContext);
  if (!store) throw new Error('useKeptState outside <KeptStateProvider>');
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  if (!store.has(key)) store.set(key, typeof initial === 'function' ? (initial as () => T)() : initial);
  const set = useCallback<Dispatch<SetStateAction<T>>>(
    (next) => {
      const previous = store.get(key) as T;
      const value = typeof next === 'function' ? (next as (p: T) => T)(previous) : next;
      if (Object.is(value, previous)) return;
      store.set(key, value);
      rerender();
    },
    [store, key],
  );
  return [store.get(key) as T, set];
}
