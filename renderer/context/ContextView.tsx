// Context preview: what a model would see for a query, per assembly strategy, side by side, with
// a diff between any two, saved (StateBench) queries one click away, and time travel.
import { useMemo, useState } from 'react';
import { DEFAULT_BUDGET, type AssemblyResult } from '../../shared/assembly';
import { AssemblyStrategy, MAX_COMPARE, TokenizerName, type ChannelInput } from '../../shared/contract';
import { toErrorShape, type ErrorShape } from '../../shared/errors';
import { useKeptState } from '../app/kept-state';
import { useAddressState, useAppState, useDispatch } from '../app/state';
import { newOperationId, useApi, useInvalidation, useProgress, useQuery } from '../api/hooks';
import { Button } from '../ui/Button';
import { DiffView } from '../ui/DiffView';
import { Checkbox, ChipGroup, SelectField, TextField } from '../ui/fields';
import { DateTimeField } from '../ui/DateTimeInput';
import { formatDate, formatTime } from '../ui/format';
import { EmptyState, ErrorState } from '../ui/states';
import { AssemblyPanel } from './AssemblyPanel';
import { includedOf, itemDiff } from './spans';

const DEFAULT_STRATEGIES: AssemblyStrategy[] = ['state_based', 'balanced'];

type Tokenizer = TokenizerName;

export function ItemDiffView({ a, b }: { a: AssemblyResult; b: AssemblyResult }) {
  const d = useMemo(() => itemDiff(includedOf(a.provenance), includedOf(b.provenance)), [a, b]);
  const moved = d.both.filter((x) => x.a.rank !== x.b.rank).length;
  return (
    <div className="item-diff row wrap" data-testid="item-diff">
      <section className="card grow" aria-label={`Only in ${a.strategy}`}>
        <h4>
          Only in {a.strategy} ({d.onlyA.length})
        </h4>
        <ul className="list-plain">
          {d.onlyA.slice(0, 100).map((p) => (
            <li key={`${p.kind}:${p.id}`} className="memory-text diff-remove-text">
              − {p.label}
            </li>
          ))}
        </ul>
      </section>
      <section className="card grow" aria-label={`Only in ${b.strategy}`}>
        <h4>
          Only in {b.strategy} ({d.onlyB.length})
        </h4>
        <ul className="list-plain">
          {d.onlyB.slice(0, 100).map((p) => (
            <li key={`${p.kind}:${p.id}`} className="memory-text diff-add-text">
              + {p.label}
            </li>
          ))}
        </ul>
      </section>
      <section className="card grow" aria-label="In both">
        <h4>In both ({d.both.length})</h4>
        <p className="muted">{moved} ranked differently.</p>
      </section>
    </div>
  );
}

export function ComparePanel({ results }: { results: readonly AssemblyResult[] }) {
  const names = results.map((r) => r.strategy);
  const [left, setLeft] = useState<string>(names[0] ?? '');
  const [right, setRight] = useState<string>(names[1] ?? '');
  const a = results.find((r) => r.strategy === left) ?? results[0];
  const b = results.find((r) => r.strategy === right) ?? results[1];
  if (!a || !b) return null;
  const options = names.map((n) => ({ value: n, label: n }));
  return (
    <section className="compare col card" aria-label="Compare strategies">
      <div className="row wrap">
        <h3 className="grow">Diff</h3>
        <SelectField label="From" value={a.strategy} options={options} onChange={setLeft} />
        <SelectField label="To" value={b.strategy} options={options} onChange={setRight} />
      </div>
      <ItemDiffView a={a} b={b} />
      <DiffView before={a.text} after={b.text} beforeLabel={a.strategy} afterLabel={b.strategy} />
    </section>
  );
}

export function ContextView() {
  const { partitionId, asOf: globalAsOf } = useAppState();
  const dispatch = useDispatch();
  const { transport } = useApi();
  const saved = useQuery('savedQueries.list', partitionId === null ? null : { partitionId });
  const sessions = useQuery('sessions.list', partitionId === null ? null : { partitionId });
  // Inputs and results are kept per partition while the user looks elsewhere and comes back.
  const kept = (name: string) => `context:${partitionId ?? 'none'}:${name}`;
  // The query, strategies and budget are in the address: a link reopens the same preview.
  const [query, setQuery] = useAddressState('query', '');
  const [strategies, setStrategies] = useAddressState('strategies', DEFAULT_STRATEGIES);
  const [budget, setBudget] = useAddressState('budget', String(DEFAULT_BUDGET));
  const [tokenizer, setTokenizer] = useKeptState<Tokenizer>(kept('tokenizer'), 'cl100k_base');
  const [sessionId, setSessionId] = useKeptState(kept('session'), '');
  const [asOf, setAsOf] = useKeptState<string | undefined>(kept('asOf'), globalAsOf ?? undefined);
  const [useQueryTime, setUseQueryTime] = useKeptState(kept('useQueryTime'), true);
  const [savedId, setSavedId] = useKeptState(kept('saved'), '');
  const [state, setState] = useKeptState<{
    running: boolean;
    operationId?: string;
    results?: AssemblyResult[];
    error?: ErrorShape;
    ranFor?: string;
    ranSession?: string;
  }>(kept('run'), { running: false });
  const progress = useProgress(state.running ? state.operationId : undefined);
  const lastInput = useMemo(() => ({ query, strategies, budget, tokenizer, sessionId, asOf }), [query, strategies, budget, tokenizer, sessionId, asOf]);

  if (partitionId === null) return null;
  const pid = partitionId;

  async function run(input = lastInput) {
    if (input.strategies.length === 0) return;
    const operationId = newOperationId('assemble');
    setState((s) => ({ ...s, running: true, operationId, error: undefined }));
    const base = {
      partitionId: pid,
      query: input.query,
      budget: Math.max(1, Math.min(1_000_000, Number(input.budget) || DEFAULT_BUDGET)),
      tokenizer: input.tokenizer,
      operationId,
      ...(input.sessionId ? { sessionId: input.sessionId } : {}),
      ...(input.asOf ? { asOf: input.asOf } : {}),
    };
    try {
      let results: AssemblyResult[];
      const [first] = input.strategies;
      if (input.strategies.length === 1 && first) {
        const one: ChannelInput<'context.assemble'> = { ...base, strategy: first };
        results = [await transport.call('context.assemble', one)];
      } else {
        const many: ChannelInput<'context.compare'> = { ...base, strategies: input.strategies };
        results = (await transport.call('context.compare', many)).results;
      }
      setState({ running: false, results, ranFor: input.query, ranSession: input.sessionId || 'default' });
    } catch (e) {
      setState((s) => ({ ...s, running: false, error: toErrorShape(e) }));
    }
  }

  return (
    <section className="context-view col" aria-label="Context preview">
      <form
        className="context-form card col"
        aria-label="Assembly settings"
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <div className="row wrap">
          <label className="field grow">
            <span className="field-label">Query</span>
            <textarea
              className="textarea"
              rows={2}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder="What is the agent about to answer?"
              maxLength={10_000}
            />
          </label>
          {saved.data && saved.data.queries.length > 0 ? (
            <div className="col">
              <SelectField
                label={
                  saved.data.truncated
                    ? `Saved queries (first ${saved.data.queries.length.toLocaleString('en-US')})`
                    : `Saved queries (${saved.data.queries.length})`
                }
                value={savedId}
                options={[
                  { value: '', label: 'pick a saved query…' },
                  ...saved.data.queries.map((q) => ({ value: String(q.id), label: `${q.label.slice(0, 50)}${q.ts ? ` · ${formatDate(q.ts)}` : ''}` })),
                ]}
                onChange={(v) => {
                  setSavedId(v);
                  const q = saved.data?.queries.find((x) => String(x.id) === v);
                  if (!q) return;
                  setQuery(q.prompt);
                  if (useQueryTime && q.ts) setAsOf(q.ts);
                }}
              />
              <Checkbox label="Use the query's time as as-of" checked={useQueryTime} onChange={setUseQueryTime} />
            </div>
          ) : null}
        </div>
        <ChipGroup<AssemblyStrategy>
          legend={`Strategies (up to ${MAX_COMPARE}, side by side)`}
          options={AssemblyStrategy.options.map((s) => ({ value: s, label: s }))}
          value={strategies}
          onChange={(v) => setStrategies(v.slice(0, MAX_COMPARE))}
        />
        <div className="row wrap">
          <TextField label="Budget (tokens)" type="number" min={1} max={1_000_000} value={budget} onChange={(e) => setBudget(e.target.value)} size={8} />
          <SelectField<Tokenizer>
            label="Tokenizer"
            value={tokenizer}
            options={TokenizerName.options.map((t) => ({ value: t, label: t }))}
            onChange={setTokenizer}
          />
          <SelectField
            label="Session"
            value={sessionId}
            options={[{ value: '', label: 'default' }, ...(sessions.data?.sessions ?? []).map((s) => ({ value: s.sessionId, label: s.sessionId }))]}
            onChange={setSessionId}
          />
          <DateTimeField label="As of (UTC)" value={asOf} onChange={setAsOf} />
          {asOf ? (
            <Button small onClick={() => setAsOf(undefined)}>
              Now
            </Button>
          ) : null}
          <span className="grow" />
          <Button type="submit" variant="primary" disabled={state.running || strategies.length === 0}>
            {state.running ? 'Assembling…' : strategies.length > 1 ? `Compare ${strategies.length} strategies` : 'Assemble'}
          </Button>
        </div>
        {state.running && progress ? (
          <span className="muted">
            {progress.phase} {progress.total ? `${progress.done}/${progress.total}` : ''}
          </span>
        ) : null}
      </form>
      <RefreshOnChange active={state.results !== undefined && !state.running} onRefresh={() => void run()} />
      {state.error ? <ErrorState error={state.error} onRetry={() => void run()} context="Assembly" /> : null}
      {state.results ? (
        <>
          <p className="muted">
            Query: <span className="memory-text">{state.ranFor || '(empty)'}</span>
            {asOf ? ` · as of ${formatTime(asOf)}` : ''}
          </p>
          <div className="assemblies" role="group" aria-label="Strategies side by side">
            {state.results.map((r) => (
              <AssemblyPanel
                key={r.strategy}
                result={r}
                onOpenFact={(id) => dispatch({ type: 'openFact', factId: id, view: 'memories', tab: 'detail' })}
                sessionId={state.ranSession ?? 'default'}
                sessions={sessions.data?.sessions}
                onSelectSession={(id) => {
                  // Choose that session in the settings and show its document straight away.
                  setSessionId(id);
                  void run({ ...lastInput, sessionId: id });
                }}
              />
            ))}
          </div>
          {state.results.length >= 2 ? <ComparePanel results={state.results} /> : null}
        </>
      ) : !state.error ? (
        <EmptyState title="Preview a context">
          Type a query (or pick a saved one), choose strategies and a budget, then Assemble. Each included fact is highlighted; hover it to see where it came
          from.
        </EmptyState>
      ) : null}
    </section>
  );
}

/** Re-runs the last assembly when the engine announces a change (live updates). */
function RefreshOnChange({ active, onRefresh }: { active: boolean; onRefresh: () => void }) {
  useInvalidation(() => {
    if (active) onRefresh();
  });
  return null;
}
