// After a delete commits: move the WAL into the file and truncate it, then make sure no copy of
// the deleted text survives in the file's free space. Copies are zeroed where they lie, under
// the write lock; should any survive that, the indexes holding them are rebuilt (REINDEX, or the
// full-text index's own rebuild), and failing that the whole file (VACUUM). Runs outside any
// transaction and reports instead of failing: the delete itself has committed.
import fs from 'node:fs';
import type { ScrubReport } from '../../../shared/deletion';
import type { Sqlite } from '../db/open';
import { MAX_HITS, NeedleSet, scanFreeSpace, wipeFreeSpace, type FreeSpaceScan, type FreeSpaceWipe } from './free-space';

/** Tries at taking the write lock with an empty WAL before the scrub falls back to rebuilding. */
const WIPE_ATTEMPTS = 3;
/** How long the checkpoint waits for readers to move to the newest snapshot. */
const CHECKPOINT_WAIT_MS = 500;

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

export function checkpointTruncate(db: Sqlite): ScrubReport['checkpoint'] {
  const previous = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${CHECKPOINT_WAIT_MS}`);
  try {
    const [row] = db.pragma('wal_checkpoint(TRUNCATE)') as CheckpointRow[];
    return { busy: (row?.busy ?? 1) !== 0, walFrames: row?.log ?? -1, checkpointedFrames: row?.checkpointed ?? -1 };
  } catch (e) {
    // SQLITE_BUSY from another writer: the WAL keeps its frames until a later checkpoint.
    if (/busy|locked/i.test(e instanceof Error ? e.message : '')) return { busy: true, walFrames: -1, checkpointedFrames: -1 };
    throw e;
  } finally {
    db.pragma(`busy_timeout = ${previous}`);
  }
}

/** Words as the unicode61 tokenizer (remove_diacritics 2) indexes them, approximately. */
export function ftsTokens(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0);
}

export interface DeletedText {
  readonly key: string;
  readonly value: string;
  readonly label: string | null;
}

/**
 * Needles for the free-space scan: each deleted value, key and label that no surviving fact
 * still holds (a stale copy of live text is no leak), and every indexed word no surviving fact
 * holds. The index stores a word after the prefix it shares with the word before it, so a long
 * word is also searched without its first four characters.
 */
export function needlesFor(db: Sqlite, texts: readonly DeletedText[]): NeedleSet {
  const needles = new NeedleSet();
  if (texts.length === 0) return needles;
  // One statement per kind of text over all deleted facts (json_each), each probe an index seek.
  const notLive = (sql: string, values: Iterable<string>): string[] =>
    db
      .prepare(sql)
      .pluck()
      .all(JSON.stringify([...new Set(values)])) as string[];
  const inPartitions = 'f.partition_id IN (SELECT id FROM partitions)';
  for (const v of notLive(
    `SELECT j.value FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE ${inPartitions} AND substr(f.value, 1, 64) = substr(j.value, 1, 64) AND f.value = j.value)`,
    texts.map((t) => t.value),
  ))
    needles.add(v);
  for (const k of notLive(
    `SELECT j.value FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE ${inPartitions} AND f.key = j.value)`,
    texts.map((t) => t.key),
  ))
    needles.add(k);
  const labels = texts.flatMap((t) => (t.label ? [t.label] : []));
  if (labels.length > 0)
    for (const l of notLive(`SELECT j.value FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE ${inPartitions} AND f.label = j.value)`, labels))
      needles.add(l);
  const words = new Set<string>();
  for (const t of texts) for (const w of ftsTokens(`${t.key} ${t.value}`)) words.add(w);
  if (words.size > 0) {
    db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.sl_fts_vocab USING fts5vocab(main, 'facts_fts', 'row')");
    for (const w of notLive('SELECT j.value FROM json_each(?) j WHERE NOT EXISTS (SELECT 1 FROM temp.sl_fts_vocab v WHERE v.term = j.value)', words)) {
      needles.add(w, 'word');
      if (w.length >= 10) needles.add(w.slice(4), 'word');
    }
  }
  return needles;
}

function walBytes(path: string): number {
  try {
    return fs.statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}

/** Shadow tables of the full-text index: where a deleted word is a leak. */
const FTS_SHADOW = /^facts_fts_/;

interface Assessment {
  /** Matches that are copies of deleted text (coincidental word matches dropped). */
  readonly leaks: number;
  /** The b-trees holding them. */
  readonly holders: Array<{ name: string; isIndex: boolean }>;
  /** Too many matches to list: rebuild the file rather than trust a partial list. */
  readonly overflow: boolean;
}

/** Maps matches to the b-trees owning their pages (dbstat), keeping the real leaks. */
function assess(db: Sqlite, scan: FreeSpaceScan): Assessment {
  if (scan.hits.length === 0) return { leaks: 0, holders: [], overflow: scan.truncated };
  const pages = new Set(scan.hits.map((h) => h.page));
  const owner = new Map<number, string>();
  for (const r of db.prepare('SELECT name, pageno FROM dbstat').iterate() as Iterable<{ name: string; pageno: number }>) {
    if (pages.has(r.pageno)) owner.set(r.pageno, r.name);
  }
  const leaks = scan.hits.filter((h) => h.kind === 'text' || FTS_SHADOW.test(owner.get(h.page) ?? ''));
  const indexes = new Set(db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").pluck().all() as string[]);
  const names = [...new Set(leaks.map((h) => owner.get(h.page) ?? '?'))].sort();
  return {
    leaks: leaks.length,
    holders: names.map((name) => ({ name, isIndex: indexes.has(name) || name.startsWith('sqlite_autoindex_') })),
    overflow: scan.truncated,
  };
}

/** Matches that are copies of deleted text, telling the full-text index's pages from others
 * by walking only its own b-trees (dbstat with a name), and only when a word matched. */
function countLeaks(db: Sqlite, scan: FreeSpaceScan): number {
  const text = scan.hits.filter((h) => h.kind === 'text').length;
  const words = scan.hits.filter((h) => h.kind === 'word');
  if (words.length === 0) return text;
  const ftsPages = new Set<number>();
  try {
    const shadow = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'facts\\_fts\\_%' ESCAPE '\\'").pluck().all() as string[];
    const pagesOf = db.prepare('SELECT pageno FROM dbstat WHERE name = ?').pluck();
    for (const name of shadow) for (const page of pagesOf.all(name) as number[]) ftsPages.add(page);
  } catch {
    return text + words.length; // the walk failed: count every word match rather than none
  }
  return text + words.filter((h) => ftsPages.has(h.page)).length;
}

const FTS_REBUILD = "INSERT INTO facts_fts (facts_fts) VALUES ('rebuild')";
const quoteName = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Every b-tree page of the file, as SQLite's own walk of every b-tree lists them. */
function btreePages(db: Sqlite): Set<number> {
  return new Set(db.prepare("SELECT pageno FROM dbstat WHERE pagetype IN ('internal', 'leaf')").pluck().all() as number[]);
}

/**
 * Zeroes the free space of every b-tree page, in the file itself (wipeFreeSpace). Holds the
 * write lock throughout, so no writer appends to the WAL, which must be empty: the file then
 * holds every page's newest version. When anything was zeroed, this connection's page cache is
 * then dropped and a no-op write commits, which makes every other connection drop its cache at
 * its next transaction, so none can write a cached copy of a page's old free space back.
 * Undefined when the lock or an empty WAL is not to be had; the caller then rebuilds instead.
 */
export function wipeUnderLock(db: Sqlite, path: string, needles: NeedleSet): FreeSpaceWipe | undefined {
  // A live writer may commit between the checkpoint and the lock: checkpoint again and retry.
  for (let attempt = 0; attempt < WIPE_ATTEMPTS; attempt++) {
    if (attempt > 0 && checkpointTruncate(db).busy) return undefined;
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch {
      return undefined;
    }
    try {
      if (walBytes(path) !== 0) continue;
      const wipe = wipeFreeSpace(path, needles, () => btreePages(db));
      if (wipe.bytesZeroed > 0) {
        db.pragma('shrink_memory');
        const version = db.pragma('user_version', { simple: true }) as number;
        db.pragma(`user_version = ${version}`);
      }
      db.exec('COMMIT');
      return wipe;
    } finally {
      if (db.inTransaction) db.exec('ROLLBACK');
    }
  }
  return undefined;
}

const leaking = (a: Assessment | null): boolean => a !== null && (a.leaks > 0 || a.overflow);

/** Checkpoint again and rescan; null when a reader keeps the checkpoint from completing. */
function recheck(db: Sqlite, path: string, needles: NeedleSet): Assessment | null {
  return checkpointTruncate(db).busy ? null : assess(db, scanFreeSpace(path, needles));
}

/** How long a delete waits for other connections' read transactions to end before it reports
 * the scrub incomplete: long enough for a reader's ordinary query, short enough for a person. */
export const SCRUB_WAIT_MS = 3000;
const RETRY_MS = 50;

/** The checkpoint, retried while another connection's read transaction holds it back. */
function checkpointWaiting(db: Sqlite): ScrubReport['checkpoint'] {
  const until = Date.now() + SCRUB_WAIT_MS;
  let result = checkpointTruncate(db);
  while (result.busy && Date.now() < until) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS); // a synchronous sleep
    result = checkpointTruncate(db);
  }
  return result;
}

// While a connection keeps reading a snapshot from before the delete, the checkpoint cannot
// copy the delete's pages over the old ones: the text is still in the database file itself.
const HELD_BY_READER =
  `Another connection kept a read transaction open for ${SCRUB_WAIT_MS / 1000} s, so the delete could not be written over the old pages: ` +
  'copies of the deleted text remain in the database file (and in its WAL). They are overwritten once that reader ends and a checkpoint runs: ' +
  'the next write or delete does one, and so does closing every connection to the database.';

/** Checkpoint, then zero the file's free space (or, failing that, scan it and rebuild what holds
 * a copy of the deleted text), and check that no copy is left. */
export function scrubDeletedText(db: Sqlite, path: string, needles: NeedleSet): ScrubReport {
  const checkpoint = checkpointWaiting(db);
  const base = { checkpoint, remnantsFound: 0, remedy: 'none' as const, rebuilt: [] as string[], remnantsAfter: 0 };
  if (checkpoint.busy) {
    return {
      ...base,
      complete: false,
      detail: HELD_BY_READER,
    };
  }
  let wipe: FreeSpaceWipe | undefined;
  try {
    wipe = wipeUnderLock(db, path, needles);
  } catch {
    wipe = undefined; // e.g. SQLite cannot walk a damaged b-tree: the rebuild below still can try
  }
  if (wipe) {
    const found = countLeaks(db, wipe.scan);
    // Nothing zeroed: the free space was clean and nothing was written, so nothing to recheck.
    const after = wipe.bytesZeroed === 0 ? null : recheck(db, path, needles);
    if (wipe.bytesZeroed === 0 || !leaking(after)) {
      const complete = (wipe.bytesZeroed === 0 || after !== null) && walBytes(path) === 0;
      const summary = `${wipe.scan.btreePages} b-tree pages scanned, ${found} ${found === 1 ? 'copy' : 'copies'} of the deleted text found in free space; the free space of ${wipe.pagesZeroed} pages zeroed in place`;
      return {
        ...base,
        remnantsFound: found,
        remedy: wipe.bytesZeroed > 0 ? 'zero' : 'none',
        complete,
        detail: complete
          ? `Checkpointed; ${summary}; none is left.`
          : `Checkpointed; ${summary}; a reader then kept the WAL from being truncated (it holds no deleted text, only the page written to end the wipe).`,
      };
    }
  }
  let scan: FreeSpaceScan;
  let found: Assessment;
  try {
    scan = scanFreeSpace(path, needles);
    found = assess(db, scan);
  } catch (e) {
    return { ...base, complete: false, detail: `The file's free space could not be checked: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (found.leaks === 0 && !found.overflow) {
    return { ...base, complete: walBytes(path) === 0, detail: `Checkpointed; ${scan.btreePages} b-tree pages scanned, no copy of the deleted text left.` };
  }
  let remedy: ScrubReport['remedy'] = 'none';
  let rebuilt: string[] = [];
  let after: Assessment | null = found;
  try {
    if (!found.overflow && found.holders.every((h) => h.isIndex || FTS_SHADOW.test(h.name))) {
      // An index is rebuilt by REINDEX; the full-text index by its own 'rebuild', which empties
      // its tables (zeroing their pages) and indexes the surviving facts again.
      const indexes = found.holders.filter((h) => h.isIndex).map((h) => h.name);
      for (const name of indexes) db.exec(`REINDEX ${quoteName(name)}`);
      rebuilt = [...indexes];
      if (found.holders.some((h) => FTS_SHADOW.test(h.name))) {
        db.exec(FTS_REBUILD);
        rebuilt.push('facts_fts');
      }
      remedy = 'rebuild';
      after = recheck(db, path, needles);
    }
    if (remedy === 'none' || leaking(after)) {
      db.exec('VACUUM');
      remedy = 'vacuum';
      after = recheck(db, path, needles);
    }
  } catch (e) {
    return {
      ...base,
      remnantsFound: found.leaks,
      remedy,
      rebuilt,
      remnantsAfter: found.leaks,
      complete: false,
      detail: `Stale copies of the deleted text were found in free space; rebuilding failed: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  const remaining = after === null ? found.leaks : after.leaks + (after.overflow ? MAX_HITS : 0);
  const complete = after !== null && remaining === 0 && walBytes(path) === 0;
  const how = remedy === 'rebuild' ? `the indexes holding them were rebuilt (${rebuilt.join(', ')})` : 'the file was rebuilt (VACUUM)';
  return {
    checkpoint,
    remnantsFound: found.leaks,
    remedy,
    rebuilt,
    remnantsAfter: remaining,
    complete,
    detail: complete
      ? `Stale copies of the deleted text found in free space (${found.leaks} matches in ${found.holders.map((h) => h.name).join(', ') || 'many pages'}); ${how}; none is left.`
      : after === null
        ? `Stale copies found; ${how}, but then ${HELD_BY_READER[0]?.toLowerCase()}${HELD_BY_READER.slice(1)}`
        : `Stale copies found; ${how}; ${remaining} matches remain in free space.`,
  };
}
