// Checks that a file's schema is the one its recorded version stands for: every table with its
// columns and every index the migrations create. A flipped byte in the stored CREATE text can
// leave a structurally valid file (quick_check passes) whose `facts` table lacks a column. Also
// lists the objects Statelens did not create (a trigger copying deleted rows elsewhere defeats
// the deletion scrub), which a file must not carry silently.
import Database from 'better-sqlite3';
import { MIGRATIONS, runMigration } from './migrations';

type Shape = Map<string, string>;

const expected = new Map<number, Shape>();

/** name -> "type:columns" for every table and index (sqlite_ internals excluded). */
function shapeOf(db: Database.Database): Shape {
  const shape: Shape = new Map();
  const objects = db
    .prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all() as Array<{ type: string; name: string }>;
  for (const o of objects) {
    const cols = (
      db
        .prepare(o.type === 'table' ? 'SELECT name FROM pragma_table_info(?)' : 'SELECT name FROM pragma_index_info(?)')
        .pluck()
        .all(o.name) as Array<string | null>
    ).map(String);
    shape.set(o.name, `${o.type}:${cols.join(',')}`);
  }
  return shape;
}

function expectedShape(version: number, nativeBinding?: string): Shape {
  let shape = expected.get(version);
  if (!shape) {
    const db = new Database(':memory:', nativeBinding ? { nativeBinding } : {});
    try {
      for (const m of MIGRATIONS) if (m.version <= version) runMigration(db, m);
      shape = shapeOf(db);
    } finally {
      db.close();
    }
    expected.set(version, shape);
  }
  return shape;
}

/** The first difference from the schema of `version`, or null when every table, column and index is as built. */
export function schemaMismatch(db: Database.Database, version: number, nativeBinding?: string): string | null {
  const want = expectedShape(version, nativeBinding);
  const have = shapeOf(db);
  for (const [name, def] of want) {
    const got = have.get(name);
    if (got === undefined) return `${def.split(':')[0]} ${name} is missing`;
    if (got !== def) {
      const wantCols = (def.split(':')[1] ?? '').split(',');
      const haveCols = (got.split(':')[1] ?? '').split(',');
      const missing = wantCols.filter((c) => !haveCols.includes(c));
      const extra = haveCols.filter((c) => !wantCols.includes(c));
      return `${name}: ${missing.length ? `missing column ${missing.join(', ')}` : 'columns out of order'}${extra.length ? `; unknown column ${extra.join(', ')}` : ''}`;
    }
  }
  return null;
}

/** type:name -> CREATE text of every table, index, trigger and view the migrations up to
 * `version` create. */
const expectedObjects = new Map<number, Map<string, string | null>>();

function objectsOf(db: Database.Database): Map<string, string | null> {
  const rows = db
    .prepare("SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'index', 'trigger', 'view') AND name NOT LIKE 'sqlite_%'")
    .all() as Array<{ type: string; name: string; sql: string | null }>;
  return new Map(rows.map((r) => [`${r.type} ${r.name}`, r.sql]));
}

/**
 * The tables, indexes, triggers and views of `db` that the migrations up to `version` do not
 * create, or whose definition differs from theirs, as "trigger name" (empty when there are none).
 */
export function foreignObjects(db: Database.Database, version: number, nativeBinding?: string): string[] {
  let want = expectedObjects.get(version);
  if (!want) {
    const fresh = new Database(':memory:', nativeBinding ? { nativeBinding } : {});
    try {
      for (const m of MIGRATIONS) if (m.version <= version) runMigration(fresh, m);
      want = objectsOf(fresh);
    } finally {
      fresh.close();
    }
    expectedObjects.set(version, want);
  }
  const found: string[] = [];
  for (const [name, sql] of objectsOf(db)) {
    if (!want.has(name)) found.push(name);
    // A trigger or view of ours rewritten to do something else is not ours either.
    else if ((name.startsWith('trigger ') || name.startsWith('view ')) && want.get(name) !== sql) found.push(`${name} (changed)`);
  }
  return found.sort();
}
