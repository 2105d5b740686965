// A filtered or as-of export: the facts the inspector's filter selects (its own SQL, so a file
// holds exactly what the table lists), kept in a temporary table of the export's read
// connection, and how records read in such an export. As of a time, facts read as they stood
// then (valid, not yet superseded) and the other layers hold only what existed by then; chain
// pointers and edges to facts left out are cut, so the file re-imports on its own.
import { FactFilter, type FactFilterInput } from '../../../shared/query';
import { dialectOf } from '../db/dialect';
import type { Sqlite } from '../db/open';
import type { FactRow } from '../facts/rows';
import { filterSql } from '../query/filter-sql';
import { parseInput } from '../query/validate';

export interface ExportSelection {
  readonly filter: FactFilter;
  /** The time the export shows the state at, or null for the state as it is. */
  readonly asOf: string | null;
  /** How many facts the filter selected. */
  readonly facts: number;
  /** Whether the fact with this id is in the export. */
  has(id: string): boolean;
}

/** SQL restricting `facts f` to the selection. */
export const SELECTED_SQL = 'f.rid IN (SELECT rid FROM temp.export_selection)';

/** Selects the facts of `filterInput` in one partition or all of them (inside the export's read
 * transaction: the selection and every record read later see the same snapshot). */
export function selectFacts(db: Sqlite, partitionId: number | null, filterInput: FactFilterInput): ExportSelection {
  const filter = parseInput(FactFilter, filterInput, 'filter', { root: '(filter)' });
  db.exec('CREATE TEMP TABLE IF NOT EXISTS export_selection (rid INTEGER PRIMARY KEY)');
  db.exec('DELETE FROM temp.export_selection');
  const partitions = db.prepare('SELECT id FROM partitions WHERE @p IS NULL OR id = @p ORDER BY id').pluck().all({ p: partitionId }) as number[];
  for (const id of partitions) {
    const sql = filterSql(id, filter, dialectOf(db));
    db.prepare(`INSERT INTO temp.export_selection SELECT f.rid FROM facts f WHERE ${sql.parts.map((p) => `(${p.sql})`).join(' AND ')}`).run(sql.params);
  }
  const facts = db.prepare('SELECT count(*) FROM temp.export_selection').pluck().get() as number;
  const member = db.prepare(`SELECT 1 FROM facts f WHERE f.id = ? AND ${SELECTED_SQL}`).pluck();
  return { filter, asOf: filter.asOf ?? null, facts, has: (id) => member.get(id) !== undefined };
}

/** Whether a row created (observed, updated) at `at` belongs in the export: everything without
 * a time, or existing by the selection's time. */
export function existedBy(at: string | null | undefined, selection: ExportSelection | undefined): boolean {
  return selection?.asOf == null || at == null || at <= selection.asOf;
}

/** A selected fact as the export shows it: as it stood at the selection's time (every fact an
 * as-of filter selects was valid then), with pointers to facts left out of the export cut. */
export function factAsExported<R extends FactRow>(row: R, selection: ExportSelection | undefined): R {
  if (!selection) return row;
  let r = row;
  if (selection.asOf !== null && r.status === 'superseded') r = { ...r, status: 'active', is_valid: 1, superseded_by: null, valid_to: null };
  const cut = (id: string | null): string | null => (id !== null && selection.has(id) ? id : null);
  const supersedes = cut(r.supersedes);
  const supersededBy = cut(r.superseded_by);
  const proposalFor = cut(r.proposal_for);
  if (supersedes !== r.supersedes || supersededBy !== r.superseded_by || proposalFor !== r.proposal_for) {
    r = { ...r, supersedes, superseded_by: supersededBy, proposal_for: proposalFor };
  }
  return r;
}
