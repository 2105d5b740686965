// Deletion privacy, checked from the outside: after 1,000 random deletions (single, lists and
// filters; facts in chains and with dependents) no deleted fact's text is left in the database
// file, its WAL or the full-text index. Every value carries a unique random marker; the bytes
// are searched directly, independently of the engine's own scrub report.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DeletionSelectionInput } from '../../shared/query';
import { mulberry32 } from '../../electron/engine/demo/prng';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import { Store } from '../../electron/engine/store';
import { tmpDbPath } from '../helpers/tmp';
import { envInt } from '../helpers/child';
import { sqliteChecks } from '../../electron/bench/databases';
import { verifyProblems } from './files';

const TARGET_DELETIONS = envInt('STATELENS_PRIVACY_DELETIONS', 1000);
const MARKER = /zq[0-9a-f]{16}/g;

interface Tracked {
  readonly id: string;
  readonly partition: number;
  readonly key: string;
  readonly marker: string;
}

function fileBytes(path: string): Buffer {
  const parts = [path, `${path}-wal`].filter((p) => fs.existsSync(p)).map((p) => fs.readFileSync(p));
  return Buffer.concat(parts);
}

/** Every marker still present anywhere in the file or its WAL, whole or as the index's compressed suffix. */
function leftovers(path: string, deleted: readonly Tracked[]): string[] {
  const bytes = fileBytes(path);
  const text = bytes.toString('latin1');
  const whole = new Set(text.match(MARKER) ?? []);
  const found: string[] = [];
  for (const d of deleted) {
    if (whole.has(d.marker)) found.push(`${d.marker} (whole)`);
    // The full-text index stores a word after the prefix it shares with its neighbour.
    else if (bytes.indexOf(d.marker.slice(-11), 0, 'latin1') >= 0) found.push(`${d.marker} (suffix)`);
  }
  return found;
}

function populate(store: Store, random: () => number): { handles: PartitionHandle[]; facts: Map<string, Tracked> } {
  const refs = [
    { kind: 'user', org: 'acme', user: 'ann' },
    { kind: 'user', org: 'acme', user: 'bob' },
    { kind: 'organizational', org: 'acme' },
  ] as const;
  const handles = refs.map((r) => store.scope(r, { create: true }));
  const facts = new Map<string, Tracked>();
  const topics = ['budget', 'deadline', 'vendor', 'office', 'travel', 'hiring', 'launch', 'pricing'];
  for (const h of handles) {
    for (let round = 0; round < 8; round++) {
      const batch = Array.from({ length: 100 }, (_, i) => {
        const n = round * 100 + i;
        const topic = topics[n % topics.length] ?? 'note';
        const key = `${topic}_${Math.floor(random() * 40)}`;
        const marker = `zq${crypto.randomBytes(8).toString('hex')}`;
        return {
          key,
          value: `${topic} note ${marker} ${n % 5 === 0 ? 'actually changed' : 'as agreed'}`,
          ...(n % 7 === 0 ? { dependsOn: [`${topics[(n + 1) % topics.length]}_${Math.floor(random() * 40)}`] } : {}),
          ...(n % 19 === 0 ? { supersedes: `${topics[(n + 2) % topics.length]}_${Math.floor(random() * 40)}` } : {}),
        };
      });
      h.writeFacts(batch);
    }
  }
  const rows = store.db.prepare('SELECT id, partition_id, key, value FROM facts').all() as Array<{
    id: string;
    partition_id: number;
    key: string;
    value: string;
  }>;
  for (const r of rows) {
    const marker = r.value.match(MARKER)?.[0];
    if (marker) facts.set(r.id, { id: r.id, partition: r.partition_id, key: r.key, marker });
  }
  return { handles, facts };
}

describe('deletion privacy', { timeout: 600_000 }, () => {
  it(`${TARGET_DELETIONS} random deletions leave no deleted text in the file, the WAL or the full-text index`, () => {
    const seed = envInt('STATELENS_PRIVACY_SEED', 4242);
    const random = mulberry32(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const path = tmpDbPath('privacy.db');
    const store = Store.open(path);
    const { handles, facts } = populate(store, random);
    const total = facts.size;
    expect(total).toBeGreaterThan(TARGET_DELETIONS + 200);
    const deleted: Tracked[] = [];
    const kinds: Record<string, number> = {};
    const incomplete: string[] = [];
    let flagged = 0;
    let relinked = 0;
    let ops = 0;
    const checkpoints: number[] = [];

    while (deleted.length < TARGET_DELETIONS) {
      const handle = pick(handles);
      const alive = [...facts.values()].filter((f) => f.partition === handle.id);
      if (alive.length === 0) continue;
      const roll = random();
      let selection: DeletionSelectionInput;
      let kind: string;
      if (roll < 0.35) {
        kind = 'single';
        selection = { ids: [pick(alive).id] };
      } else if (roll < 0.65) {
        kind = 'list';
        const n = 2 + Math.floor(random() * 12);
        selection = { ids: [...new Set(Array.from({ length: n }, () => pick(alive).id))] };
      } else if (roll < 0.85) {
        kind = 'filter: key';
        selection = { filter: { key: pick(alive).key, validity: random() < 0.5 ? 'all' : 'superseded' } };
      } else {
        kind = 'filter: search';
        selection = { filter: { search: pick(alive).marker } };
      }
      const preview = handle.previewDeletion(selection);
      const result = handle.deleteFacts(selection, { actor: 'privacy-test', reason: 'random deletion' });
      expect(result.deleted).toBe(preview.toDelete);
      ops++;
      kinds[kind] = (kinds[kind] ?? 0) + 1;
      flagged += result.flagged;
      relinked += result.relinked;
      if (result.scrub && !result.scrub.complete) incomplete.push(`${kind}: ${result.scrub.detail}`);
      for (const id of result.deletedIds) {
        const f = facts.get(id);
        expect(f, `deleted id ${id} was not a tracked fact of partition ${handle.id}`).toBeDefined();
        if (!f) continue;
        expect(f.partition).toBe(handle.id);
        facts.delete(id);
        deleted.push(f);
      }
      // A byte check now and then along the way, and always at the end.
      if (ops % 60 === 0) {
        expect(leftovers(path, deleted), `after ${ops} deletions`).toEqual([]);
        checkpoints.push(deleted.length);
      }
    }

    expect(leftovers(path, deleted)).toEqual([]);
    // The full-text index, as SQLite reads it: no deleted marker is a term, none matches.
    store.db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.privacy_vocab USING fts5vocab(main, 'facts_fts', 'row')");
    const term = store.db.prepare('SELECT 1 FROM temp.privacy_vocab WHERE term = ?').pluck();
    const match = store.db.prepare('SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?').pluck();
    for (const d of deleted) {
      expect(term.get(d.marker), `${d.marker} still an index term`).toBeUndefined();
      expect(match.get(`"${d.marker}"`)).toBe(0);
    }
    // The method can see text: surviving markers are found, in the index and in the bytes.
    const survivors = [...facts.values()].slice(0, 50);
    const text = fileBytes(path).toString('latin1');
    for (const s of survivors) {
      expect(text.includes(s.marker), `surviving ${s.marker} not found: the byte search is blind`).toBe(true);
      expect(term.get(s.marker)).toBe(1);
    }
    expect(sqliteChecks(store.db)).toEqual([]);
    expect(verifyProblems(store)).toEqual([]);
    expect(store.db.prepare('SELECT count(*) FROM facts').pluck().get()).toBe(total - deleted.length);
    console.log(
      `[privacy] ${deleted.length} facts deleted in ${ops} operations ${JSON.stringify(kinds)}; ${flagged} dependents flagged, ${relinked} pointers relinked; ` +
        `byte checks after ${checkpoints.join(', ')} and ${deleted.length} deletions: no deleted text in file, WAL or index; ` +
        `${incomplete.length} scrub reports incomplete${incomplete.length ? `: ${incomplete[0]}` : ''}`,
    );
    expect(incomplete).toEqual([]);
    store.close();
    // Reopened, the text is still gone (nothing came back from a WAL replay).
    expect(leftovers(path, deleted)).toEqual([]);
  });
});
