// Helpers for engine tests that look underneath the engine: whole-database dumps (to prove a
// read changed nothing), raw file bytes (to prove deleted text is gone), the full-text index's
// vocabulary, and an independent walk of the dependency edges.
import fs from 'node:fs';
import { dialectOf } from '../../electron/engine/db/dialect';
import type { EngineDb } from '../../electron/engine/db/connection';

/** Every row of every real table (full-text shadow tables included), in a stable order. */
export function dumpTables(db: EngineDb): Record<string, unknown[]> {
  if (dialectOf(db).name === 'postgres') {
    // The store's schema is the connection's current one; rows in the order of their leading columns.
    const names = db
      .prepare("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name")
      .pluck()
      .all() as string[];
    const columns = db.prepare('SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?').pluck();
    return Object.fromEntries(
      names.map((n) => {
        const order = Array.from({ length: Math.min(3, columns.get(n) as number) }, (_, i) => i + 1).join(', ');
        return [n, db.prepare(`SELECT * FROM "${n}" ORDER BY ${order}`).all()];
      }),
    );
  }
  const tables = db.prepare("SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{
    name: string;
    sql: string;
  }>;
  const dump: Record<string, unknown[]> = {};
  for (const t of tables) {
    if (/CREATE VIRTUAL TABLE/i.test(t.sql)) continue;
    const withoutRowid = /WITHOUT ROWID/i.test(t.sql);
    dump[t.name] = db.prepare(`SELECT * FROM "${t.name}" ORDER BY ${withoutRowid ? '1, 2' : 'rowid'}`).all();
  }
  return dump;
}

/** The database file and its WAL, as bytes. */
export function fileBytes(path: string): { db: Buffer; wal: Buffer } {
  const read = (p: string): Buffer => (fs.existsSync(p) ? fs.readFileSync(p) : Buffer.alloc(0));
  return { db: read(path), wal: read(`${path}-wal`) };
}

export function hasBytes(buf: Buffer, text: string): boolean {
  return buf.indexOf(Buffer.from(text, 'utf8')) >= 0;
}

/** Every term in the full-text index. */
export function ftsTerms(db: EngineDb): Set<string> {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_fts_vocab USING fts5vocab(main, 'facts_fts', 'row')");
  return new Set(db.prepare('SELECT term FROM temp.test_fts_vocab').pluck().all() as string[]);
}

/** Transitive dependents of `roots` computed in JavaScript from the edge rows (cycle-safe). */
export function dependentsOf(db: EngineDb, partitionId: number, roots: Iterable<string>): Set<string> {
  const edges = db.prepare('SELECT dependent, depends_on FROM fact_edges WHERE partition_id = ?').all(partitionId) as Array<{
    dependent: string;
    depends_on: string;
  }>;
  const byTarget = new Map<string, string[]>();
  for (const e of edges) byTarget.set(e.depends_on, [...(byTarget.get(e.depends_on) ?? []), e.dependent]);
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const id = queue.pop() as string;
    for (const d of byTarget.get(id) ?? []) {
      if (!seen.has(d)) {
        seen.add(d);
        queue.push(d);
      }
    }
  }
  return seen;
}

export interface PointerRow {
  id: string;
  partition_id: number;
  status: string;
  is_valid: number;
  superseded_by: string | null;
  supersedes: string | null;
  proposal_for: string | null;
  needs_review: number;
  review_cause: string | null;
  review_cause_fact: string | null;
}

export function pointerRows(db: EngineDb, partitionId?: number): Map<string, PointerRow> {
  const rows = db
    .prepare(
      'SELECT id, partition_id, status, is_valid, superseded_by, supersedes, proposal_for, needs_review, review_cause, review_cause_fact FROM facts WHERE @p IS NULL OR partition_id = @p',
    )
    .all({ p: partitionId ?? null }) as PointerRow[];
  return new Map(rows.map((r) => [r.id, r]));
}
