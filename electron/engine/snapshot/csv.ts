// CSV of the facts (all, or a filtered view): RFC 4180 quoting with CRLF records, and cells
// that a spreadsheet would run as a formula (= + - @, tab, CR) prefixed with a quote.
import { StatelensError } from '../../../shared/errors';
import { FactFilter, type FactFilterInput } from '../../../shared/query';
import type { EngineDb } from '../db/connection';
import { FACT_COLUMNS, type FactRow } from '../facts/rows';
import { partitionLabel, refFromRow, type PartitionRow } from '../partitions/partitions';
import type { PartitionContext } from '../context';
import { countFacts, listFacts } from '../query';
import { parseInput } from '../query/validate';
import { Ticker, type ExportControl, type FileSink } from './sink';

export const CSV_COLUMNS = [
  'partition',
  'id',
  'label',
  'key',
  'value',
  'status',
  'is_valid',
  'memory_type',
  'level',
  'scope',
  'scope_id',
  'source_type',
  'source_identity',
  'source_authority',
  'source_turn',
  'source_event',
  'ts',
  'created_at',
  'last_accessed_at',
  'access_count',
  'importance',
  'supersedes',
  'superseded_by',
  'supersession_rule',
  'supersession_reason',
  'valid_to',
  'proposal_for',
  'needs_review',
  'review_cause',
  'review_cause_fact',
  'is_constraint',
  'constraint_type',
  'time_sensitive',
  'depends_on',
  'derived_facts',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: neutralised against formula injection, then quoted when RFC 4180 needs it. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = typeof value === 'string' ? value : typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

type CsvRow = FactRow & { depends_on_ids: string | null; derived_ids: string | null };

const ROW_SELECT = `SELECT ${FACT_COLUMNS},
    (SELECT group_concat(depends_on, ' ') FROM (SELECT depends_on FROM fact_edges e WHERE e.dependent = f.id ORDER BY depends_on)) AS depends_on_ids,
    (SELECT group_concat(dependent, ' ') FROM (SELECT dependent FROM fact_edges e WHERE e.depends_on = f.id ORDER BY dependent)) AS derived_ids
  FROM facts f`;

function cells(label: string, r: CsvRow): unknown[] {
  return [
    label,
    r.id,
    r.label,
    r.key,
    r.value,
    r.status,
    r.is_valid === 1,
    r.memory_type,
    r.level,
    r.scope,
    r.scope_id,
    r.source_type,
    r.source_identity,
    r.source_authority,
    r.source_turn,
    r.source_event,
    r.ts,
    r.created_at,
    r.last_accessed_at,
    r.access_count,
    r.importance,
    r.supersedes,
    r.superseded_by,
    r.supersession_rule,
    r.supersession_reason,
    r.valid_to,
    r.proposal_for,
    r.needs_review === 1,
    r.review_cause,
    r.review_cause_fact,
    r.is_constraint === 1,
    r.constraint_type,
    r.time_sensitive === 1,
    r.depends_on_ids,
    r.derived_ids,
  ];
}

/** A read-only partition context on the export's own connection, so the inspector's query
 * layer (listFacts / countFacts) selects the filtered view inside the export's snapshot. */
function readerContext(db: EngineDb, p: PartitionRow): PartitionContext {
  return {
    db,
    clock: { now: () => new Date().toISOString() },
    newId: () => {
      throw new StatelensError('READ_ONLY', 'An export writes nothing');
    },
    emit: () => undefined,
    partitionId: p.id,
    orgId: p.org_id,
    kind: p.kind,
    subject: p.subject,
    maturity: p.maturity,
  };
}

const PAGE = 500;

export async function writeCsv(
  db: EngineDb,
  sink: FileSink,
  partitionId: number | null,
  filterInput: FactFilterInput | undefined,
  control: ExportControl,
): Promise<number> {
  const partitions = db.prepare('SELECT * FROM partitions WHERE @p IS NULL OR id = @p ORDER BY id').all({ p: partitionId }) as PartitionRow[];
  await sink.write(csvRow(CSV_COLUMNS));
  if (filterInput === undefined) {
    const total = db.prepare('SELECT count(*) FROM facts WHERE @p IS NULL OR partition_id = @p').pluck().get({ p: partitionId }) as number;
    const ticker = new Ticker(control, 'facts', total);
    const labels = new Map(partitions.map((p) => [p.id, partitionLabel(refFromRow(p))]));
    for (const r of db
      .prepare(`${ROW_SELECT} WHERE @p IS NULL OR f.partition_id = @p ORDER BY f.rid`)
      .iterate({ p: partitionId }) as IterableIterator<CsvRow>) {
      await sink.write(csvRow(cells(labels.get(r.partition_id) ?? String(r.partition_id), r)));
      await ticker.tick();
    }
    ticker.finish();
    return ticker.done;
  }
  // A filtered view: exactly what the inspector's table shows for this filter, oldest first.
  const filter = parseFilter(filterInput);
  const contexts = partitions.map((p) => ({ label: partitionLabel(refFromRow(p)), ctx: readerContext(db, p) }));
  const total = contexts.reduce((a, c) => a + countFacts(c.ctx, filter, Number.MAX_SAFE_INTEGER).count, 0);
  const ticker = new Ticker(control, 'facts', total);
  const byIds = db.prepare(`${ROW_SELECT} WHERE f.id IN (SELECT value FROM json_each(?))`);
  for (const { label, ctx } of contexts) {
    let after: string | null = null;
    do {
      const page = listFacts(ctx, { filter, sort: { column: 'ts', direction: 'asc' }, page: { limit: PAGE, after } });
      const rows = new Map((byIds.all(JSON.stringify(page.rows.map((r) => r.id))) as CsvRow[]).map((r) => [r.id, r]));
      for (const v of page.rows) {
        const r = rows.get(v.id);
        if (!r) continue;
        await sink.write(csvRow(cells(label, r)));
        await ticker.tick();
      }
      after = page.nextCursor;
    } while (after);
  }
  ticker.finish();
  return ticker.done;
}

function parseFilter(input: FactFilterInput): FactFilter {
  return parseInput(FactFilter, input, 'filter', { root: '(filter)' });
}
