// The operations the crash trials kill: StateBench import, snapshot import, a large ingest, a bulk
// deletion and exports. Each knows its base database and how to tell "not applied" from "fully applied".
import fs from 'node:fs';
import path from 'node:path';
import { importStatebenchFile } from '../../engine/import/statebench';
import { exportStore } from '../../engine/snapshot/export';
import { importSnapshotFile } from '../../engine/snapshot/import';
import { Store } from '../../engine/store';
import { makeStatelensDb, sqliteChecks } from '../databases';
import { checkNdjsonComplete } from '../load/harness';
import { ingestBatch } from './ingest-batch';
import { openAndCheck, type CrashOp, type TrialCheck } from './trials';

const TABLES = ['partitions', 'facts', 'fact_edges', 'working_items', 'environment_signals', 'saved_queries', 'audit_log', 'identities'] as const;
type Counts = Record<(typeof TABLES)[number], number>;

export function tableCounts(store: Store): Counts {
  const out = {} as Counts;
  for (const t of TABLES) out[t] = store.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
  return out;
}

function countsOf(db: string): Counts {
  const store = Store.open(db);
  try {
    return tableCounts(store);
  } finally {
    store.close();
  }
}

function same(a: Counts, b: Counts): boolean {
  return TABLES.every((t) => a[t] === b[t]);
}

/** Classifies a database by its table counts: the base state, the finished state, or a partial mix (a failure). */
function classify(db: string, before: Counts, after: Counts, extra: (store: Store) => string[] = () => []): TrialCheck {
  let counts: Counts | undefined;
  const problems = openAndCheck(db, (store) => {
    counts = tableCounts(store);
    return extra(store);
  });
  if (!counts) return { state: 'before', problems };
  if (same(counts, after)) return { state: 'after', problems };
  if (same(counts, before)) return { state: 'before', problems };
  return {
    state: 'before',
    problems: [...problems, `partially applied: ${JSON.stringify(counts)} is neither ${JSON.stringify(before)} nor ${JSON.stringify(after)}`],
  };
}

function emptyDb(file: string): void {
  Store.open(file).close();
}

export interface PreparedOp {
  readonly op: CrashOp;
  readonly base: string;
}

/** An import into an empty database, killed by name: `args` runs it in the child, `apply` runs
 * the same import on a reference copy to learn what "fully applied" looks like. */
function prepareImportInto(workDir: string, name: string, args: (db: string) => string[], apply: (store: Store) => void): PreparedOp {
  const base = path.join(workDir, `${name.replace(/\W+/g, '-')}-base.db`);
  emptyDb(base);
  const ref = path.join(workDir, `${name.replace(/\W+/g, '-')}-ref.db`);
  emptyDb(ref);
  const s = Store.open(ref);
  apply(s);
  s.close();
  const before = countsOf(base);
  const after = countsOf(ref);
  return { base, op: { name, args, check: (db) => classify(db, before, after) } };
}

/** StateBench import of a whole split (one transaction) into an empty database. */
export function prepareImport(workDir: string, split: string): PreparedOp {
  return prepareImportInto(
    workDir,
    'import statebench',
    (db) => ['import', '--db', db, '--file', split],
    (s) => importStatebenchFile(s, split),
  );
}

/** An NDJSON snapshot of a populated database (StateBench split when present, generated facts
 * otherwise) imported into an empty database: one transaction, so all of it or nothing. */
export async function prepareSnapshotImport(workDir: string, statebenchSplit: string | undefined, extraFacts: number): Promise<PreparedOp> {
  const source = path.join(workDir, 'snapshot-source.db');
  makeStatelensDb(source, extraFacts);
  const src = Store.open(source);
  if (statebenchSplit) importStatebenchFile(src, statebenchSplit);
  const snapshot = path.join(workDir, 'snapshot.ndjson');
  await exportStore(src, { format: 'ndjson', out: snapshot });
  src.close();
  return prepareImportInto(
    workDir,
    'import snapshot',
    (db) => ['import-snapshot', '--db', db, '--file', snapshot],
    (s) => importSnapshotFile(s, snapshot),
  );
}

/** A large batch of facts with supersessions and dependencies, in one transaction, on top of existing data. */
export function prepareIngest(workDir: string, facts: number): PreparedOp {
  const base = path.join(workDir, 'ingest-base.db');
  makeStatelensDb(base, 1000);
  const prep = Store.open(base);
  prep.scope({ kind: 'user', org: 'acme', user: 'ingest' }, { create: true });
  prep.close();
  const ref = path.join(workDir, 'ingest-ref.db');
  fs.copyFileSync(base, ref);
  const s = Store.open(ref);
  s.scope({ kind: 'user', org: 'acme', user: 'ingest' }, { create: true }).writeFacts(ingestBatch(facts));
  s.close();
  const before = countsOf(base);
  const after = countsOf(ref);
  return {
    base,
    op: {
      name: 'large ingest',
      args: (db) => ['ingest', '--db', db, '--facts', String(facts)],
      check: (db) => classify(db, before, after),
    },
  };
}

/** Export to a file: the database is untouched, the file is complete or absent (only `.partial` leftovers). */
export function prepareExport(workDir: string, format: 'ndjson' | 'json' | 'sqlite', statebenchSplit: string | undefined, extraFacts: number): PreparedOp {
  const base = path.join(workDir, `export-${format}-base.db`);
  makeStatelensDb(base, extraFacts);
  if (statebenchSplit) {
    const s = Store.open(base);
    importStatebenchFile(s, statebenchSplit);
    s.close();
  }
  const counts = countsOf(base);
  const outName = `out.${format}`;
  return {
    base,
    op: {
      name: `export ${format}`,
      args: (db, dir) => ['export', '--db', db, '--out', path.join(dir, outName), '--format', format],
      check: (db, dir) => {
        const problems = openAndCheck(db, (store) => {
          const now = tableCounts(store);
          return same(now, counts) ? [] : [`export changed the database: ${JSON.stringify(now)}`];
        });
        for (const name of fs.readdirSync(dir)) {
          if (name.startsWith('trial.db') || name === outName) continue;
          if (!/\.partial(-wal|-shm|-journal)?$/.test(name)) problems.push(`unexpected file left behind: ${name}`);
        }
        const out = path.join(dir, outName);
        if (!fs.existsSync(out)) return { state: 'before', problems };
        try {
          if (format === 'ndjson') {
            const { records } = checkNdjsonComplete(out);
            if (records === 0) problems.push('complete export with no records');
          } else if (format === 'json') {
            // A whole document or nothing: it parses, and holds every fact of the database.
            const doc = JSON.parse(fs.readFileSync(out, 'utf8')) as { records?: Array<{ type?: string }> };
            const facts = (doc.records ?? []).filter((r) => r.type === 'fact').length;
            if (facts !== counts.facts) problems.push(`json export holds ${facts} facts, database ${counts.facts}`);
          } else {
            const copy = Store.open(out, { readonly: true });
            try {
              problems.push(...sqliteChecks(copy.db));
              const got = tableCounts(copy);
              if (got.facts !== counts.facts) problems.push(`sqlite copy holds ${got.facts} facts, database ${counts.facts}`);
            } finally {
              copy.close();
            }
          }
        } catch (e) {
          problems.push(`export file present but not complete: ${String(e)}`);
        }
        return { state: 'after', problems };
      },
    },
  };
}

/** A bulk deletion by filter (every superseded fact of a partition with chains and dependents). */
export function prepareDelete(workDir: string, facts: number): PreparedOp {
  const base = path.join(workDir, 'delete-base.db');
  makeStatelensDb(base, 500);
  const prep = Store.open(base);
  prep.scope({ kind: 'user', org: 'acme', user: 'ingest' }, { create: true }).writeFacts(ingestBatch(facts));
  prep.close();
  const ref = path.join(workDir, 'delete-ref.db');
  fs.copyFileSync(base, ref);
  const s = Store.open(ref);
  const result = s
    .scope({ kind: 'user', org: 'acme', user: 'ingest' })
    .deleteFacts({ filter: { validity: 'superseded' } }, { actor: 'crash-test', reason: 'bulk delete' });
  s.close();
  if (result.deleted === 0) throw new Error('the bulk delete selects nothing');
  const before = countsOf(base);
  const after = countsOf(ref);
  return {
    base,
    op: {
      name: `bulk delete (${result.deleted} facts)`,
      args: (db) => ['delete', '--db', db],
      check: (db) =>
        classify(db, before, after, (store) => {
          // No chain pointer dangles and no superseded fact became valid again.
          const dangling = store.db
            .prepare(
              `SELECT count(*) FROM facts f WHERE (f.superseded_by IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = f.superseded_by))
                 OR (f.supersedes IS NOT NULL AND NOT EXISTS (SELECT 1 FROM facts g WHERE g.id = f.supersedes))`,
            )
            .pluck()
            .get() as number;
          return dangling === 0 ? [] : [`${dangling} dangling chain pointers`];
        }),
    },
  };
}
