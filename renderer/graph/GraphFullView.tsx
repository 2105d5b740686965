// The dependency graph as a view of its own: the open fact's neighbourhood filling the main area,
// the fact's detail beside it. Picking a node opens that fact here (the graph stays centred where
// it was until "Centre on selected").
import { useAppState, useDispatch } from '../app/state';
import { FactDetailFor } from '../fact-detail/FactPanel';
import { EmptyState } from '../ui/states';
import { GraphView } from './GraphView';

export function GraphFullView() {
  const { partitionId, factId, asOf } = useAppState();
  const dispatch = useDispatch();
  if (partitionId === null) return null;
  if (factId === null)
    return (
      <section className="graph-full-view" aria-label="Dependency graph">
        <EmptyState title="No fact open">
          The graph shows the dependencies around one fact. Open a fact in the Memories view, the review queue or the command palette (Ctrl+K), then come back
          here or use "Full view" in its Graph tab.
        </EmptyState>
      </section>
    );
  return (
    <section className="graph-full-view" aria-label="Dependency graph">
      <div className="graph-full-main">
        <GraphView partitionId={partitionId} factId={factId} asOf={asOf} onSelect={(id) => dispatch({ type: 'openFact', factId: id })} />
      </div>
      <aside className="graph-full-detail" aria-label="Fact detail">
        <FactDetailFor partitionId={partitionId} factId={factId} />
      </aside>
    </section>
  );
}
