// Reads a LangGraph / LangMem long-term store: the `store` table of PostgresStore (namespace,
// key, JSON value, created / updated / expiry times) from a PostgreSQL server, or rows exported
// from it as JSON lines (`SELECT row_to_json(s) FROM store s`) or one JSON array. The JavaScript
// store names the namespace `namespace_path` (parts joined by ":"), the Python one `prefix`
// (joined by "."). Each namespace becomes a user partition named by its parts, each item a fact.
import pg from 'pg';
import { StatelensError } from '../../../../shared/errors';
import { quoteIdent } from '../../db/pg/sync-client';
import {
  checkedPartition,
  emptyPlan,
  isRecord,
  malformed,
  noteUnknownFields,
  parseJsonDocument,
  partitionPlan,
  sourceTimestamp,
  valueProblem,
  type ForeignPlan,
  type ForeignValue,
} from './plan';

/** One store row, whichever way it was read. */
export interface StoreRow {
  readonly where: string;
  readonly namespace: unknown;
  /** The separator of a namespace given as text. */
  readonly separator: string;
  readonly key: unknown;
  readonly value: unknown;
  readonly createdAt: unknown;
  readonly updatedAt: unknown;
  readonly expiresAt: unknown;
}

const ROW_FIELDS = ['namespace_path', 'prefix', 'namespace', 'key', 'value', 'created_at', 'updated_at', 'expires_at', 'ttl_minutes'];

export function isPostgresUrl(input: string): boolean {
  return /^postgres(?:ql)?:\/\//i.test(input);
}

/** Reads every row of SCHEMA.store on the server `url` names. */
export async function readStoreTable(url: string, schema: string): Promise<StoreRow[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: 120_000 });
  const shown = url.replace(/\/\/[^@/]*@/, '//…@');
  try {
    await client.connect();
  } catch (e) {
    throw new StatelensError('IMPORT_FAILED', `${shown}: cannot connect (${e instanceof Error ? e.message : String(e)}); nothing was imported`);
  }
  try {
    const cols = await client.query<{ column_name: string }>('SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2', [
      schema,
      'store',
    ]);
    const names = new Set(cols.rows.map((r) => r.column_name));
    if (names.size === 0) throw malformed(shown, '', `holds no LangGraph store table ${schema}.store`);
    const ns = names.has('namespace_path') ? 'namespace_path' : names.has('prefix') ? 'prefix' : undefined;
    const missing = [ns ? undefined : 'namespace_path (or prefix)', ...['key', 'value'].filter((c) => !names.has(c))].filter(Boolean);
    if (!ns || missing.length > 0) throw malformed(shown, `table ${schema}.store`, `has no column ${missing.join(', ')}`);
    const opt = (c: string): string => (names.has(c) ? quoteIdent(c) : 'NULL');
    const result = await client.query<Record<string, unknown>>(
      `SELECT ${quoteIdent(ns)} AS namespace, key, value::text AS value, ${opt('created_at')} AS created_at, ${opt('updated_at')} AS updated_at,
              ${opt('expires_at')} AS expires_at
         FROM ${quoteIdent(schema)}.store ORDER BY ${quoteIdent(ns)}, key`,
    );
    return result.rows.map((r) => ({
      where: `row (${String(r.namespace)}, ${String(r.key)})`,
      namespace: r.namespace,
      separator: ns === 'prefix' ? '.' : ':',
      key: r.key,
      value: parseStoredValue(r.value),
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      expiresAt: r.expires_at,
    }));
  } finally {
    await client.end().catch(() => undefined);
  }
}

function parseStoredValue(text: unknown): unknown {
  if (typeof text !== 'string') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Rows exported from the table: JSON lines, or one JSON array of row objects. */
export function readStoreExport(content: string, sourceName: string, plan: ForeignPlan): StoreRow[] {
  const trimmed = content.trimStart();
  const records: Array<{ where: string; json: unknown }> = [];
  if (trimmed.startsWith('[')) {
    const list = parseJsonDocument(content, sourceName) as unknown[];
    list.forEach((json, i) => records.push({ where: `row ${i + 1}`, json }));
  } else {
    content.split('\n').forEach((raw, i) => {
      if (raw.trim() === '') return;
      try {
        records.push({ where: `line ${i + 1}`, json: JSON.parse(raw) });
      } catch (e) {
        throw malformed(sourceName, `line ${i + 1}`, `not valid JSON (${e instanceof Error ? e.message : String(e)})`, { line: i + 1 });
      }
    });
  }
  if (records.length === 0) throw malformed(sourceName, '', 'holds no store rows (empty file)');
  return records.map(({ where, json }) => {
    if (!isRecord(json)) throw malformed(sourceName, where, 'is not a store row object (namespace_path or prefix, key, value)');
    noteUnknownFields(plan, json, ROW_FIELDS, where);
    const namespace = json.namespace_path ?? json.prefix ?? json.namespace;
    if (namespace === undefined || json.key === undefined || !('value' in json))
      throw malformed(sourceName, where, 'a store row needs a namespace (namespace_path, prefix or namespace), a key and a value');
    return {
      where,
      namespace,
      separator: 'prefix' in json ? '.' : ':',
      key: json.key,
      value: parseStoredValue(json.value),
      createdAt: json.created_at,
      updatedAt: json.updated_at,
      expiresAt: json.expires_at,
    };
  });
}

/** Fills `plan` with store rows: one user partition per namespace (its parts joined by "/"). An
 * item past its expiry is gone for LangGraph too, and is left out. */
export function planLangGraph(plan: ForeignPlan, rows: readonly StoreRow[], org: string, now = new Date()): ForeignPlan {
  const seen = new Set<string>();
  for (const r of rows) {
    const parts = Array.isArray(r.namespace) ? r.namespace.map(String) : typeof r.namespace === 'string' ? r.namespace.split(r.separator) : undefined;
    if (!parts || parts.length === 0 || parts.some((p) => p.trim() === '')) {
      plan.skipped.push({ where: r.where, reason: 'the namespace is empty or not text' });
      continue;
    }
    const key = typeof r.key === 'string' || typeof r.key === 'number' ? String(r.key) : '';
    if (key.trim() === '' || key.length > 500) {
      plan.skipped.push({ where: r.where, reason: key === '' ? 'the item has no key' : `the key is ${key.length} characters, over 500` });
      continue;
    }
    const expires = r.expiresAt ? sourceTimestamp(plan, r.expiresAt, r.where) : undefined;
    if (expires && expires <= now.toISOString()) {
      plan.skipped.push({ where: r.where, reason: `the item expired at ${expires}` });
      continue;
    }
    const problem = valueProblem(r.value);
    if (problem) {
      plan.skipped.push({ where: r.where, reason: problem });
      continue;
    }
    const id = `${parts.join('/')}|${key}`;
    if (seen.has(id)) {
      plan.skipped.push({ where: r.where, reason: `namespace ${parts.join('/')} repeats key ${key}` });
      continue;
    }
    seen.add(id);
    const partition = checkedPartition(plan, { kind: 'user', org, user: parts.join('/') }, r.where);
    if (!partition) continue;
    const ts = sourceTimestamp(plan, r.updatedAt ?? r.createdAt, r.where);
    const stamp = (v: unknown): string | null => (v instanceof Date ? v.toISOString() : typeof v === 'string' ? v : null);
    partitionPlan(plan, partition).facts.push({
      ref: key,
      key,
      value: r.value as ForeignValue,
      ...(ts ? { ts } : {}),
      provenance: {
        sourceId: `${parts.join(r.separator)} ${key}`,
        where: r.where,
        createdAt: stamp(r.createdAt),
        updatedAt: stamp(r.updatedAt),
        extra: { namespace: parts, ...(expires ? { expiresAt: expires } : {}) },
      },
    });
  }
  return plan;
}

/** The plan for an exported store table (a file; a PostgreSQL URL is read with readStoreTable). */
export function langGraphFilePlan(content: string, sourceName: string, org: string): ForeignPlan {
  const plan = emptyPlan('langgraph', sourceName);
  return planLangGraph(plan, readStoreExport(content, sourceName, plan), org);
}
