// Component-test harness: mounts the inspector (or any subtree) against the real engine and
// handlers in-process, through a Transport that speaks to the shipped dispatcher.
import { act, cleanup, configure, render, type RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach } from 'vitest';
import { StatelensError } from '../../shared/errors';
import { seedInspectorData, type SeedInfo, type SeedOptions } from '../../test/e2e/helpers/seed';
import { startRuntime, type BackendRuntime, type TestBackend } from '../../test/e2e/helpers/backend';
import type { Transport } from '../api/transport';
import { Providers, Root } from '../app/Root';
import { createAppRouter } from '../app/router';
import type { AppState } from '../app/state';

// One engine worker per test file (starting one compiles the engine); each test gets a fresh
// database file opened in it, so tests stay independent.
let runtime: BackendRuntime | undefined;

// The machine running the suite may be busy (two cores, other suites in parallel): wait longer
// than the default second before calling a UI state missing.
configure({ asyncUtilTimeout: 8000 });

afterEach(() => {
  cleanup();
});

afterAll(async () => {
  await runtime?.close();
  runtime = undefined;
});

export function transportFor(backend: TestBackend, calls: string[] = []): Transport {
  return {
    kind: 'http',
    async call(channel, input) {
      calls.push(channel);
      const r = await backend.call(channel, input ?? {});
      if (r.ok) return r.value as never;
      throw new StatelensError(r.error.code, r.error.message, r.error.details);
    },
    on(event, listener) {
      return backend.subscribe((name, payload) => {
        if (name === event) listener(payload as never);
      });
    },
  };
}

export interface Mounted extends RenderResult {
  readonly backend: TestBackend & { seeded: SeedInfo };
  readonly transport: Transport;
  readonly calls: string[];
}

export const SMALL_SEED: SeedOptions = { bulk: 60, graph: 40 };

export async function startSeeded(seed: SeedOptions = SMALL_SEED): Promise<TestBackend & { seeded: SeedInfo }> {
  runtime ??= startRuntime();
  return runtime.open((store) => seedInspectorData(store, seed));
}

/** The whole inspector on a seeded database. */
export async function mountInspector(options: { seed?: SeedOptions; initial?: (s: SeedInfo) => Partial<AppState> } = {}): Promise<Mounted> {
  const backend = await startSeeded(options.seed);
  const calls: string[] = [];
  const transport = transportFor(backend, calls);
  let result!: RenderResult;
  await act(async () => {
    // The app's own router on jsdom's address bar, so tests see the addresses users see.
    result = render(
      <Root transport={transport} router={createAppRouter()} initial={options.initial?.(backend.seeded) ?? { partitionId: backend.seeded.mainPartition }} />,
    );
  });
  return { ...result, backend, transport, calls };
}

/** A subtree inside every provider, on a seeded database. */
export async function mountWithProviders(
  children: (s: SeedInfo) => ReactNode,
  initial: (s: SeedInfo) => Partial<AppState>,
  seed?: SeedOptions,
): Promise<Mounted> {
  const backend = await startSeeded(seed);
  const calls: string[] = [];
  const transport = transportFor(backend, calls);
  let result!: RenderResult;
  await act(async () => {
    result = render(
      <Providers transport={transport} initial={initial(backend.seeded)}>
        {children(backend.seeded)}
      </Providers>,
    );
  });
  return { ...result, backend, transport, calls };
}
