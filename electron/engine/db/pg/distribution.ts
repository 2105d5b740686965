// The scale-out rules for distributing a store by org (Citus-style), checked against the live
// catalog: which tables the distribution script names, and whether every key and reference of a
// distributed table carries the distribution column, as sharding requires.
import { quoteIdent, type SyncPg } from './sync-client';

export interface DistributedTable {
  readonly table: string;
  readonly column: string;
  /** The table it is co-located with (null: the first of its co-location group). */
  readonly colocateWith: string | null;
}

export interface DistributionPlan {
  /** In script order. */
  readonly distributed: readonly DistributedTable[];
  readonly reference: readonly string[];
  /** Every table named, in script order. */
  readonly order: readonly string[];
}

const CALL = /create_(distributed|reference)_table\s*\(([^)]*)\)/gi;
const QUOTED = /'((?:[^']|'')*)'/g;

/** The tables a distribution script distributes or replicates (comments ignored). */
export function parseDistributionScript(sql: string): DistributionPlan {
  const code = sql.replace(/--[^\n]*/g, '');
  const distributed: DistributedTable[] = [];
  const reference: string[] = [];
  const order: string[] = [];
  for (const m of code.matchAll(CALL)) {
    const args = [...(m[2] ?? '').matchAll(QUOTED)].map((q) => (q[1] ?? '').replace(/''/g, "'"));
    const colocate = /colocate_with\s*=>\s*'([^']*)'/i.exec(m[2] ?? '')?.[1] ?? null;
    const table = args[0] ?? '';
    order.push(table);
    if (m[1]?.toLowerCase() === 'reference') reference.push(table);
    else distributed.push({ table, column: args[1] ?? '', colocateWith: colocate });
  }
  return { distributed, reference, order };
}

interface Key {
  table: string;
  name: string;
  kind: 'p' | 'u' | 'f' | 'x' | 'index';
  cols: string[];
  /** For a foreign key: the referenced table and its columns, position by position. */
  refTable: string | null;
  refCols: string[];
}

/**
 * What stops the schema from being distributed by the plan: tables not named (or named but absent),
 * keys and unique indexes of distributed tables without the distribution column, foreign keys that
 * do not pair the two distribution columns, references from reference tables to distributed ones,
 * and a table named before a table it refers to. Empty when the plan can be applied.
 */
export function distributionViolations(conn: SyncPg, schema: string, plan: DistributionPlan): string[] {
  const out: string[] = [];
  const tables = conn
    .query<{ relname: string }>(`SELECT relname FROM pg_class WHERE relnamespace = $1::regnamespace AND relkind IN ('r', 'p') ORDER BY 1`, [schema])
    .rows.map((r) => r.relname);
  const dist = new Map(plan.distributed.map((d) => [d.table, d]));
  const ref = new Set(plan.reference);
  const seen = new Set<string>();
  for (const t of plan.order) {
    if (seen.has(t)) out.push(`${t} is named more than once`);
    seen.add(t);
    if (!tables.includes(t)) out.push(`${t} is named in the script but is not a table of the schema`);
  }
  for (const t of tables) if (!seen.has(t)) out.push(`${t} is neither distributed nor a reference table in the script`);

  const groups = new Map<string, string>();
  for (const d of plan.distributed) {
    // A table named but missing is reported above; ::regclass would fail on it.
    if (tables.includes(d.table)) {
      const cols = conn.query('SELECT 1 FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2 AND NOT attisdropped', [
        `${quoteIdent(schema)}.${quoteIdent(d.table)}`,
        d.column,
      ]);
      if (cols.rowCount === 0) out.push(`${d.table} has no column ${d.column} to be distributed by`);
    }
    groups.set(d.table, d.colocateWith ? (groups.get(d.colocateWith) ?? d.colocateWith) : d.table);
  }
  if (new Set(groups.values()).size > 1) out.push(`distributed tables are not all co-located: ${JSON.stringify(Object.fromEntries(groups))}`);

  const keys = conn.query<Key>(
    `SELECT cl.relname AS table, c.conname AS name, c.contype::text AS kind,
            ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS cols,
            rc.relname AS "refTable",
            ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS "refCols"
       FROM pg_constraint c JOIN pg_class cl ON cl.oid = c.conrelid LEFT JOIN pg_class rc ON rc.oid = c.confrelid
      WHERE c.connamespace = $1::regnamespace AND c.contype IN ('p', 'u', 'f', 'x')
     UNION ALL
     SELECT cl.relname, x.relname, 'index',
            ARRAY(SELECT coalesce(a.attname, '(expression)') FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(n, o) LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o)::text[],
            NULL, ARRAY[]::text[]
       FROM pg_index i JOIN pg_class x ON x.oid = i.indexrelid JOIN pg_class cl ON cl.oid = i.indrelid
      WHERE x.relnamespace = $1::regnamespace AND i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [schema],
  ).rows;
  for (const k of keys) {
    const d = dist.get(k.table);
    if (k.kind === 'f') {
      const target = k.refTable ?? '';
      if (ref.has(k.table) && dist.has(target)) out.push(`${k.table}: ${k.name} makes a reference table refer to distributed ${target}`);
      const to = dist.get(target);
      if (d && to) {
        const i = k.cols.indexOf(d.column);
        if (i < 0 || k.refCols[i] !== to.column) out.push(`${k.table}: ${k.name} does not pair ${d.column} with ${target}.${to.column}`);
      }
      if (target !== k.table && plan.order.indexOf(target) > plan.order.indexOf(k.table)) {
        out.push(`${k.table} is named before ${target}, which its ${k.name} refers to`);
      }
    } else if (d && !k.cols.includes(d.column)) {
      out.push(`${k.table}: ${k.kind === 'index' ? 'unique index' : 'key'} ${k.name} (${k.cols.join(', ')}) does not include ${d.column}`);
    }
  }
  return [...new Set(out)];
}
