// Find everywhere, beside the table: the search also runs over every other partition of the open
// store, and each partition with matches is listed (its best matches as links, and a button that
// moves the table there with the same search). The table itself is the current partition's group.
import { useAppState, useDispatch } from '../app/state';
import { FactLink } from '../app/FactLink';
import { useQuery } from '../api/hooks';
import { searchableText } from '../palette/items';
import { Button } from '../ui/Button';
import { formatNumber } from '../ui/format';

const PER_PARTITION = 3;

export function MatchesElsewhere({ search }: { search: string }) {
  const { partitionId, asOf, filter } = useAppState();
  const dispatch = useDispatch();
  const text = searchableText(search);
  const q = useQuery(
    'facts.searchAll',
    text ? { search: text, perPartition: PER_PARTITION, ...(partitionId !== null ? { first: partitionId } : {}), ...(asOf ? { asOf } : {}) } : null,
    { keepPrevious: true },
  );
  const others = (q.data?.groups ?? []).filter((g) => g.partitionId !== partitionId);
  if (others.length === 0) return null;
  return (
    <section className="matches-elsewhere" aria-label="Matches in other partitions" data-testid="matches-elsewhere">
      <h2 className="matches-elsewhere-title muted">Also in other partitions</h2>
      <ul className="list-plain matches-elsewhere-list">
        {others.map((g) => {
          const count = g.total ? `${formatNumber(g.total.count)}${g.total.capped ? '+' : ''}` : String(g.rows.length);
          return (
            <li key={g.partitionId} className="matches-elsewhere-group row" data-partition-id={g.partitionId}>
              <Button
                small
                onClick={() => {
                  dispatch({ type: 'partition', partitionId: g.partitionId });
                  dispatch({ type: 'filter', filter });
                }}
                title={`Show the ${count} matches in ${g.label}`}
              >
                {g.label} · {count}
              </Button>
              {g.rows.map((r) => (
                <FactLink key={r.id} partitionId={g.partitionId} factId={r.id} className="matches-elsewhere-fact" title={r.value}>
                  {r.key}
                </FactLink>
              ))}
            </li>
          );
        })}
      </ul>
      {q.data && q.data.unsearched > 0 ? <p className="faint">{formatNumber(q.data.unsearched)} more partitions were not searched.</p> : null}
    </section>
  );
}
