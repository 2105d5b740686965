// The router: the address lives after "#" (hash history, so file:// inside Electron works) and is
// kept in step with the app state both ways. A move in the inspector writes the address (a new
// history entry, so Back and Forward walk through it); a changed address (Back, a followed or
// pasted link) is read back into the state, problems and all.
import {
  createHashHistory,
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  RouterProvider,
  useRouter,
  useRouterState,
  type RouterHistory,
} from '@tanstack/react-router';
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import {
  differsOnlyInTyping,
  formatAddress,
  isNewHistoryEntry,
  parseSearchText,
  readAddress,
  readSearch,
  searchOf,
  stringifySearch,
  type AddressSearch,
  type ParsedLink,
} from './address';
import { initialState, useAppState, useDispatch } from './state';

const Content = createContext<ReactNode>(null);

/** Edits of a typed text closer together than this are one history entry. */
const TYPING_PAUSE_MS = 1500;

function Routed() {
  return (
    <>
      <AddressSync />
      {useContext(Content)}
    </>
  );
}

/** Every route accepts the same typed search params; reading them never throws (a param that
 * does not parse is dropped here and reported by readAddress). */
const validateSearch = (raw: Record<string, unknown>): AddressSearch => {
  // Some params belong to one view (the queue's to the review queue, the columns to the table);
  // the path is not known here, so each view's share is kept.
  const place = { ...initialState(), ...readSearch(raw).place };
  return { ...searchOf({ ...place, view: 'memories' }), ...searchOf({ ...place, view: 'review' }) };
};

const rootRoute = createRootRoute({ component: Routed, validateSearch });
const viewRoute = createRoute({ getParentRoute: () => rootRoute, path: '$view' });
/** /view/partition, and /view/partition/fact (a fact id may hold "/": the rest of the path is it). */
const placeRoute = createRoute({ getParentRoute: () => rootRoute, path: '$view/$partition/$' });
const routeTree = rootRoute.addChildren([viewRoute, placeRoute]);

export function createAppRouter(history: RouterHistory = createHashHistory()) {
  return createRouter({
    routeTree,
    history,
    parseSearch: parseSearchText,
    stringifySearch,
    // Every address shows the inspector; one that names no route is still read (and its problems said).
    notFoundMode: 'root',
    defaultNotFoundComponent: () => null,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/** A router on an in-memory history (tests, and anywhere without an address bar). */
export function memoryRouter(address = '/'): AppRouter {
  return createAppRouter(createMemoryHistory({ initialEntries: [address] }));
}

/** What the router's current address says, with the problems of a link that does not parse. */
export function currentLink(router: AppRouter): ParsedLink {
  const { pathname, searchStr } = splitHref(router.history.location.href);
  return readAddress(pathname, parseSearchText(searchStr));
}

function splitHref(href: string): { pathname: string; searchStr: string } {
  const [pathname = '/', rest = ''] = href.replace(/^#/, '').split('?', 2);
  return { pathname, searchStr: rest.split('#')[0] ?? '' };
}

function hrefOf(router: AppRouter): string {
  const { pathname, searchStr } = splitHref(router.history.location.href);
  return `${pathname}${searchStr ? `?${searchStr}` : ''}`;
}

/** Keeps the state and the address in step. */
function AddressSync() {
  const router = useRouter();
  const state = useAppState();
  const dispatch = useDispatch();
  const href = useRouterState({ select: (s) => s.location.href });
  // The address the state was last read from or written to. When the address differs from it,
  // the user moved (Back, an edited address, a followed link): the address is read, never
  // overwritten with the state from before the move.
  const synced = useRef(hrefOf(router));
  // After reading an address, the state's own form of it replaces it (no extra Back step).
  const replaceNext = useRef(false);
  // When the address last changed by typing alone: typing on within a moment stays one Back step.
  const lastTyped = useRef(0);

  useEffect(() => {
    const current = hrefOf(router);
    if (current !== synced.current) {
      synced.current = current;
      replaceNext.current = true;
      const link = currentLink(router);
      dispatch({ type: 'place', place: link.place, notice: link.problems.length > 0 ? link.problems.join(' ') : null });
      return;
    }
    const next = formatAddress(state);
    if (next === current) {
      replaceNext.current = false;
      return;
    }
    synced.current = next;
    const now = Date.now();
    const typing = differsOnlyInTyping(current, next);
    const replace = replaceNext.current || !isNewHistoryEntry(current, next) || (typing && now - lastTyped.current < TYPING_PAUSE_MS);
    lastTyped.current = typing ? now : 0;
    replaceNext.current = false;
    // Straight to the router's history: it writes at once, so a move made before the router has
    // caught up is never mistaken for the user changing the address.
    if (replace) router.history.replace(next);
    else router.history.push(next);
  }, [state, href, router, dispatch]);
  return null;
}

/** The router around `children` (the inspector): they render inside its root route. */
export function AddressRouter({ router, children }: { router: AppRouter; children: ReactNode }) {
  return (
    <Content.Provider value={children}>
      <RouterProvider router={router} />
    </Content.Provider>
  );
}
