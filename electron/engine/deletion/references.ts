// Foreign keys during a delete. With enforcement on, SQLite rewrites every index entry of a
// fact whose self-referencing pointer column changes (19 indexes per relinked row), which made
// relinking the dominant cost of a large delete. So the delete transaction runs with enforcement
// off and does the enforcement itself, set-based, from the schema's own foreign-key list:
// cascades are applied and any reference still naming a deleted fact aborts the transaction.
import { StatelensError } from '../../../shared/errors';
import { dialectOf } from '../db/dialect';
import { sqliteOf, type EngineDb } from '../db/connection';

interface Reference {
  readonly table: string;
  readonly column: string;
  readonly onDelete: string;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Every column of every table that references facts(id), as the schema declares it. */
export function referencesToFacts(db: EngineDb): Reference[] {
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  const refs: Reference[] = [];
  const list = db.prepare('SELECT "table" AS target, "from" AS column, on_delete AS onDelete FROM pragma_foreign_key_list(?)');
  for (const table of tables) {
    for (const r of list.all(table) as Array<{ target: string; column: string; onDelete: string }>) {
      if (r.target === 'facts') refs.push({ table, column: r.column, onDelete: r.onDelete.toUpperCase() });
    }
  }
  return refs;
}

/** Runs `fn` with foreign-key enforcement off (a no-op inside an open transaction, where the
 * deferred constraints then do the same job), restoring the previous setting. */
export function withoutForeignKeyEnforcement<T>(db: EngineDb, fn: () => T): T {
  // PostgreSQL: the pointers between facts are deferred constraints (checked at commit) and the
  // server applies the cascades itself, so there is no enforcement to switch off.
  if (dialectOf(db).name === 'postgres') return fn();
  const sqlite = sqliteOf(db, 'PRAGMA foreign_keys');
  const previous = sqlite.pragma('foreign_keys', { simple: true }) as number;
  if (!sqlite.inTransaction) sqlite.pragma('foreign_keys = OFF');
  try {
    return fn();
  } finally {
    if (!sqlite.inTransaction) sqlite.pragma(`foreign_keys = ${previous ? 'ON' : 'OFF'}`);
  }
}

/**
 * What `ON DELETE` would have done for the rows in temp.sl_del, applied to the other tables
 * (cascade, set null); references from facts itself must already be relinked. Throws (the
 * caller's transaction rolls back) when a reference would be left dangling.
 */
export function enforceReferences(db: EngineDb): void {
  if (dialectOf(db).name === 'postgres') {
    // The server did the cascades; checking the deferred constraints now fails the delete here,
    // before the audit, rather than at commit.
    db.exec('SET CONSTRAINTS ALL IMMEDIATE');
    return;
  }
  for (const ref of referencesToFacts(db)) {
    const t = quote(ref.table);
    const c = quote(ref.column);
    const pointing = `${c} IN (SELECT id FROM temp.sl_del)`;
    if (ref.table !== 'facts' && ref.onDelete === 'CASCADE') db.prepare(`DELETE FROM ${t} WHERE ${pointing}`).run();
    else if (ref.table !== 'facts' && ref.onDelete === 'SET NULL') db.prepare(`UPDATE ${t} SET ${c} = NULL WHERE ${pointing}`).run();
    const left = db.prepare(`SELECT count(*) FROM ${t} WHERE ${pointing}`).pluck().get() as number;
    if (left > 0) {
      throw new StatelensError('CONFLICT', `${left} rows of ${ref.table}.${ref.column} still name a fact being deleted; nothing was deleted`, {
        table: ref.table,
        column: ref.column,
        rows: left,
      });
    }
  }
}
