// Wires one engine worker, the handlers, the dispatcher and the event bus together; the
// desktop main process and `statelens serve` each build one of these around their own Shell.
import type { EngineHost } from '../engine-host/facade';
import { createDispatcher, type Dispatch } from './dispatch';
import { ContractEvents } from './event-bus';
import { createHandlers, type Handlers } from './handlers';
import type { Shell } from './shell';

export interface AppServices {
  readonly engine: EngineHost;
  readonly handlers: Handlers;
  readonly dispatch: Dispatch;
  readonly events: ContractEvents;
  close(): Promise<void>;
}

export function createAppServices(engine: EngineHost, shell: Shell, options: { validate: boolean; log?: (line: string) => void }): AppServices {
  const handlers = createHandlers({ engine, shell });
  const dispatch = createDispatcher(handlers, {
    validateOutput: options.validate,
    onInternalError: (channel, e) => options.log?.(`statelens: ${channel} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  });
  const events = new ContractEvents(options.validate);
  const onProgress = (p: Parameters<typeof events.emit<'progress'>>[1]) => events.emit('progress', p);
  const onChanged = (e: Parameters<typeof events.emit<'data.changed'>>[1]) => events.emit('data.changed', e);
  const onAgentState = (e: Parameters<typeof events.emit<'agentState.changed'>>[1]) => events.emit('agentState.changed', e);
  engine.on('progress', onProgress);
  engine.on('changed', onChanged);
  engine.on('agentStateChanged', onAgentState);
  return {
    engine,
    handlers,
    dispatch,
    events,
    async close() {
      engine.off('progress', onProgress);
      engine.off('changed', onChanged);
      engine.off('agentStateChanged', onAgentState);
      await engine.close();
    },
  };
}
