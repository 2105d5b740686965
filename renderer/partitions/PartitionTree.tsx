// The partition picker: organisations (each collapses), each with its users, capabilities and
// organisational knowledge, with fact counts (valid / all) and the number awaiting review.
import { useMemo, useState } from 'react';
import type { PartitionKind, PartitionSummary } from '../../shared/domain';
import { formatNumber, formatTime } from '../ui/format';

const KIND_TITLES: Record<PartitionKind, string> = {
  user: 'Users',
  capability: 'Capabilities',
  organizational: 'Organisational knowledge',
};

export function subjectOf(p: PartitionSummary): string {
  switch (p.ref.kind) {
    case 'user':
      return p.ref.user;
    case 'capability':
      return p.ref.capability;
    case 'organizational':
      return 'knowledge';
  }
}

export function groupPartitions(
  partitions: readonly PartitionSummary[],
): Array<{ org: string; kinds: Array<{ kind: PartitionKind; items: PartitionSummary[] }> }> {
  const orgs = new Map<string, Map<PartitionKind, PartitionSummary[]>>();
  for (const p of partitions) {
    const kinds = orgs.get(p.ref.org) ?? new Map<PartitionKind, PartitionSummary[]>();
    kinds.set(p.ref.kind, [...(kinds.get(p.ref.kind) ?? []), p]);
    orgs.set(p.ref.org, kinds);
  }
  const order: PartitionKind[] = ['user', 'capability', 'organizational'];
  return [...orgs].map(([org, kinds]) => ({
    org,
    kinds: order.filter((k) => kinds.has(k)).map((kind) => ({ kind, items: kinds.get(kind) ?? [] })),
  }));
}

/** Above this many partitions (a StateBench import has hundreds) the picker offers a filter. */
export const PARTITION_FILTER_FROM = 12;

/** `asOf`: the counts are those of that past instant (time travel): valid then, recorded by then. */
export function PartitionTree({
  partitions,
  selectedId,
  onSelect,
  asOf = null,
}: {
  partitions: readonly PartitionSummary[];
  selectedId: number | null;
  onSelect: (id: number) => void;
  asOf?: string | null;
}) {
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? partitions.filter((p) => p.label.toLowerCase().includes(q) || p.id === selectedId) : partitions;
  }, [partitions, query, selectedId]);
  const groups = groupPartitions(shown);
  // With many partitions only the organisation holding the chosen one starts open; the user's
  // own open / close choices win after that, and a filter opens every organisation it matches.
  const selectedOrg = partitions.find((p) => p.id === selectedId)?.ref.org;
  const [openChoice, setOpenChoice] = useState<ReadonlyMap<string, boolean>>(new Map());
  const isOpen = (org: string) => query.trim() !== '' || (openChoice.get(org) ?? (partitions.length <= PARTITION_FILTER_FROM || org === selectedOrg));
  return (
    <nav className="partition-tree" aria-label="Partitions">
      {asOf ? (
        <p className="partition-asof" data-testid="partition-asof">
          Counts as of {formatTime(asOf)}
        </p>
      ) : null}
      {partitions.length > PARTITION_FILTER_FROM ? (
        <label className="field">
          <span className="sr-only">Filter partitions</span>
          <input
            className="input"
            type="search"
            placeholder={`Filter ${partitions.length} partitions`}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </label>
      ) : null}
      {groups.map((g) => (
        <details
          key={g.org}
          className="partition-org"
          open={isOpen(g.org)}
          onToggle={(e) => {
            const open = e.currentTarget.open;
            if (open !== isOpen(g.org)) setOpenChoice((m) => new Map(m).set(g.org, open));
          }}
        >
          <summary className="partition-org-name" title={`Organisation ${g.org}`}>
            <span className="grow">{g.org}</span>
            <span className="faint mono">{g.kinds.reduce((n, k) => n + k.items.length, 0)}</span>
          </summary>
          {g.kinds.map((k) => (
            <div key={k.kind} className="partition-kind">
              <h4>{KIND_TITLES[k.kind]}</h4>
              <ul className="list-plain">
                {k.items.map((p) => (
                  <li key={p.id}>
                    <button
                      type="button"
                      className="partition-item"
                      aria-current={p.id === selectedId ? 'true' : undefined}
                      aria-label={
                        asOf
                          ? `${p.label}: ${p.validFacts} valid of ${p.facts} facts as of ${formatTime(asOf)}`
                          : `${p.label}: ${p.validFacts} valid of ${p.facts} facts${p.needsReview > 0 ? `, ${p.needsReview} need review` : ''}`
                      }
                      onClick={() => onSelect(p.id)}
                    >
                      <span className="grow partition-name">{subjectOf(p)}</span>
                      {p.maturity ? <span className="badge">{p.maturity}</span> : null}
                      {/* Review flags are today's, not the past instant's: left out while travelling. */}
                      {p.needsReview > 0 && !asOf ? <span className="badge badge-review">{formatNumber(p.needsReview)}</span> : null}
                      <span
                        className="partition-count mono"
                        title={asOf ? `${p.validFacts} valid of ${p.facts} facts as of ${formatTime(asOf)}` : `${p.validFacts} valid of ${p.facts} facts`}
                      >
                        {formatNumber(p.validFacts)}
                        <span className="faint">/{formatNumber(p.facts)}</span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </details>
      ))}
    </nav>
  );
}
