// Every provider the inspector needs, around the App; tests mount the same tree.
import { useState, type ReactNode } from 'react';
import { ApiProvider } from '../api/hooks';
import type { Transport } from '../api/transport';
import { ShortcutProvider } from '../shortcuts/shortcuts';
import { ThemeProvider } from '../theme/theme';
import { ToastProvider } from '../ui/Toast';
import { App } from './App';
import { KeptStateProvider } from './kept-state';
import { AddressRouter, currentLink, memoryRouter, type AppRouter } from './router';
import { AppStateProvider, type AppState } from './state';

export function Providers({ transport, initial, children }: { transport: Transport; initial?: Partial<AppState>; children: ReactNode }) {
  return (
    <ApiProvider transport={transport}>
      <ThemeProvider>
        <ToastProvider>
          <ShortcutProvider>
            <AppStateProvider initial={initial}>
              <KeptStateProvider>{children}</KeptStateProvider>
            </AppStateProvider>
          </ShortcutProvider>
        </ToastProvider>
      </ThemeProvider>
    </ApiProvider>
  );
}

/** The inspector. With a router, the state starts from its address (the app's entry passes the
 * hash router); without one, from `initial` on an in-memory address. */
export function Root({ transport, initial, router }: { transport: Transport; initial?: Partial<AppState>; router?: AppRouter }) {
  const [routed] = useState(() => router ?? memoryRouter());
  const [start] = useState(() => {
    if (initial || !router) return initial;
    const link = currentLink(router);
    return { ...link.place, notice: link.problems.length > 0 ? link.problems.join(' ') : null };
  });
  return (
    <Providers transport={transport} initial={start}>
      <AddressRouter router={routed}>
        <App />
      </AddressRouter>
    </Providers>
  );
}
