// Every provider the inspector needs, around the App; tests mount the same tree.
import type { ReactNode } from 'react';
import { ApiProvider } from '../api/hooks';
import type { Transport } from '../api/transport';
import { ShortcutProvider } from '../shortcuts/shortcuts';
import { ThemeProvider } from '../theme/theme';
import { ToastProvider } from '../ui/Toast';
import { App } from './App';
import { KeptStateProvider } from './kept-state';
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

export function Root({ transport, initial }: { transport: Transport; initial?: Partial<AppState> }) {
  return (
    <Providers transport={transport} initial={initial}>
      <App />
    </Providers>
  );
}
