// StateBench export: each user partition as one timeline line (JSONL) whose `initial_state`
// carries the identity, the persistent facts in StateBench's own field names (chains included,
// proposals left out: StateBench has no such notion), the working set and the environment, with
// no events, so StateBench (or `statelens import statebench`) can replay the state as it stands
// (or, for an as-of export, as it stood then; a filtered export carries only the filter's facts).
import { StatelensError } from '../../../shared/errors';
import type { EngineDb } from '../db/connection';
import { FACT_COLUMNS, type FactRow } from '../facts/rows';
import type { PartitionRow } from '../partitions/partitions';
import { LATEST_SIGNALS_SQL } from '../layers/environment';
import { DEFAULT_SESSION, type IdentityRow } from '../layers/identity';
import { existedBy, factAsExported, SELECTED_SQL, type ExportSelection } from './selection';
import { Ticker, type ExportControl, type FileSink } from './sink';

export interface StatebenchFactOut {
  id: string;
  key: string;
  value: string;
  source: { type: string; identity: string | null; authority: string | null };
  ts: string;
  supersedes: string | null;
  superseded_by: string | null;
  is_valid: boolean;
  scope: string;
  depends_on: string[];
  derived_facts: string[];
  is_constraint: boolean;
  constraint_type: string | null;
}

const STATEBENCH_IDENTITY_SQL = 'SELECT * FROM identities WHERE partition_id = ? ORDER BY session_id = ? DESC, session_id LIMIT 1';

export function userPartitions(db: EngineDb, partitionId: number | null): PartitionRow[] {
  const rows = db
    .prepare("SELECT * FROM partitions WHERE (@p IS NULL OR id = @p) AND kind = 'user' ORDER BY org_id, subject")
    .all({ p: partitionId }) as PartitionRow[];
  if (partitionId !== null && rows.length === 0) {
    throw new StatelensError('INVALID_INPUT', `Partition ${partitionId} is not a user partition: StateBench initial states describe one user`);
  }
  return rows;
}

export async function writeStatebench(
  db: EngineDb,
  sink: FileSink,
  partitionId: number | null,
  control: ExportControl,
  selection?: ExportSelection,
): Promise<number> {
  const asOf = selection?.asOf ?? null;
  const kept = (ids: string[]): string[] => (selection ? ids.filter((id) => selection.has(id)) : ids);
  const partitions = userPartitions(db, partitionId);
  const ticker = new Ticker(control, 'partitions', partitions.length, 1);
  // StateBench keys a timeline by its id: the user id, made unique when two orgs share one.
  const subjects = new Map<string, number>();
  for (const p of partitions) subjects.set(p.subject, (subjects.get(p.subject) ?? 0) + 1);
  const deps = db.prepare('SELECT depends_on FROM fact_edges WHERE dependent = ? ORDER BY depends_on').pluck();
  const derived = db.prepare('SELECT dependent FROM fact_edges WHERE depends_on = ? ORDER BY dependent').pluck();
  for (const p of partitions) {
    // A timeline has one identity: the default session's (the partition-level one), else the
    // first session's by id.
    const identity = db.prepare(STATEBENCH_IDENTITY_SQL).get(p.id, DEFAULT_SESSION) as IdentityRow | undefined;
    const facts: StatebenchFactOut[] = [];
    for (const row of db
      .prepare(
        `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = ? AND f.status <> 'proposal'${selection ? ` AND ${SELECTED_SQL}` : ''} ORDER BY f.ts, f.rid`,
      )
      .iterate(p.id) as IterableIterator<FactRow>) {
      const f = factAsExported(row, selection);
      facts.push({
        id: f.id,
        key: f.key,
        value: f.value,
        source: { type: f.source_type, identity: f.source_identity, authority: f.source_authority },
        ts: f.ts,
        supersedes: f.supersedes,
        superseded_by: f.superseded_by,
        is_valid: f.is_valid === 1,
        scope: f.scope,
        depends_on: kept(deps.all(f.id) as string[]),
        derived_facts: kept(derived.all(f.id) as string[]),
        is_constraint: f.is_constraint === 1,
        constraint_type: f.constraint_type,
      });
    }
    const working = (
      db.prepare('SELECT item_type, value, created_at, priority FROM working_items WHERE partition_id = ? ORDER BY created_at, rid').all(p.id) as Array<{
        item_type: string;
        value: string;
        created_at: string;
        priority: number;
      }>
    )
      .filter((w) => existedBy(w.created_at, selection))
      .map((w) => ({ item_type: w.item_type, content: w.value, ts: w.created_at, priority: w.priority }));
    const environment: Record<string, unknown> = {};
    for (const s of db.prepare(LATEST_SIGNALS_SQL).all({ p: p.id, at: asOf }) as Array<{ key: string; value: string }>) environment[s.key] = s.value;
    const timeline = {
      id: (subjects.get(p.subject) ?? 0) > 1 ? `${p.subject}@${p.org_id}` : p.subject,
      version: '1.0',
      domain: 'statelens_export',
      track: 'statelens_export',
      difficulty: null,
      actors: { user: { id: identity?.user_id ?? p.subject, role: identity?.authority ?? null, org: p.org_id }, assistant_role: 'AI_Agent' },
      initial_state: {
        identity_role: identity
          ? {
              user_name: identity.user_name,
              authority: identity.authority,
              department: identity.department,
              organization: identity.organization,
              communication_style: identity.communication_style,
            }
          : null,
        persistent_facts: facts,
        working_set: working,
        environment,
      },
      events: [],
      metadata: { statelens_partition: p.id },
    };
    await sink.write(`${JSON.stringify(timeline)}\n`);
    await ticker.tick();
  }
  ticker.finish();
  return partitions.length;
}
