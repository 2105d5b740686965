// Databases for the crash benchmark and the fault tests: a deterministic Statelens database
// of a given size, and SQLite's own checks of an open one.
import fs from 'node:fs';
import path from 'node:path';
import { sqliteOf, type EngineDb } from '../engine/db/connection';
import { Store } from '../engine/store';

const WORDS = ['budget', 'deadline', 'vendor', 'contract', 'meeting', 'office', 'travel', 'policy', 'hiring', 'launch', 'review', 'pricing'];

/** A real Statelens database with `facts` facts (chains included), closed and checkpointed
 * so the whole database is in the one file. */
export function makeStatelensDb(file: string, facts = 2000): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Deterministic ids and clock: the same bytes every run, so a byte offset names the same spot.
  let id = 0;
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  const store = Store.open(file, { idSource: () => String(++id).padStart(8, '0'), clock: { now: () => new Date((t += 1000)).toISOString() } });
  try {
    const p = store.scope({ kind: 'user', org: 'acme', user: 'ann' }, { create: true });
    const batch = [];
    for (let i = 0; i < facts; i++) {
      const w = WORDS[i % WORDS.length] ?? 'note';
      batch.push({ key: `${w}_${i % 400}`, value: `${w} value number ${i} for the quarterly plan` });
    }
    p.writeFacts(batch);
  } finally {
    store.close();
  }
}

/** integrity_check, foreign keys and the full-text index's own check, on an open connection. */
export function sqliteChecks(engineDb: EngineDb): string[] {
  const db = sqliteOf(engineDb, 'SQLite integrity checks');
  const problems: string[] = [];
  const integrity = db.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
  if (integrity.length !== 1 || integrity[0]?.integrity_check !== 'ok') problems.push(`integrity_check: ${integrity.map((r) => r.integrity_check).join('; ')}`);
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length > 0) problems.push(`foreign_key_check: ${fk.length} violations`);
  // FTS5's check is spelled as an INSERT, so it needs a writable connection.
  if (!db.readonly) {
    try {
      db.prepare("INSERT INTO facts_fts (facts_fts, rank) VALUES ('integrity-check', 1)").run();
    } catch (e) {
      problems.push(`fts integrity-check: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  return problems;
}
