// The fast read paths of assembly against their plain definitions: the ranked strategies'
// order (a bounded top-k, and for balanced a top-k that scores only facts young or important
// enough to rank) is exactly the order of sorting every valid fact, whatever the timestamps look
// like; complete provenance reads every fact once, in (ts, rid) order, across its pages.
import fc from 'fast-check';
import { Timestamp } from '../../shared/timestamp';
import { expect, it } from 'vitest';
import { validFactsOrdered, validClause, type SimpleOrder, type TimeView } from '../../electron/engine/assembly/source';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import { describeStores, itWhere } from '../helpers/stores';

const ORDER_SQL: Record<SimpleOrder, { score: string; order: string }> = {
  recent: { score: 'coalesce(julianday(coalesce(f.last_accessed_at, f.ts)), 0.0)', order: 'coalesce(f.last_accessed_at, f.ts) DESC, f.ts DESC, f.rid DESC' },
  important: { score: 'f.importance', order: 'f.importance DESC, f.ts DESC, f.rid DESC' },
  balanced: { score: 'f.importance / (1.0 + max(0.0, (julianday(@now) - julianday(f.ts)) * 24.0))', order: 'score DESC, f.ts DESC, f.rid DESC' },
};

/** The definition: every valid fact scored and sorted. */
function sortedAll(p: PartitionHandle, view: TimeView, order: SimpleOrder): string[] {
  const { score, order: by } = ORDER_SQL[order];
  const sql = `SELECT f.id AS id, ${score} AS score FROM facts f WHERE f.partition_id = @pid AND ${validClause(view)} ORDER BY ${by}`;
  const rows = p.ctx.db
    .prepare(sql)
    .all({ pid: p.ctx.partitionId, ...(order === 'balanced' ? { now: view.now } : {}), ...(view.asOf === null ? {} : { asOf: view.asOf }) }) as Array<{
    id: string;
    score: number | null;
  }>;
  return rows.map((r) => `${r.id} ${r.score}`);
}

const iso = (hours: number): string => new Date(Date.UTC(2026, 0, 1) + hours * 3_600_000).toISOString();

/** A canonical ISO timestamp, or (odd) another form julianday() reads, or none. */
const timestamp = (odd: boolean): fc.Arbitrary<string> =>
  odd
    ? fc
        .tuple(fc.integer({ min: 0, max: 24 * 90 }), fc.constantFrom('iso', 'space', 'offset', 'date', 'overflow', 'time', 'julian', 'padded', 'words'))
        .map(([h, form]) => {
          const t = iso(h);
          if (form === 'space') return `${t.slice(0, 10)} ${t.slice(11, 16)}`;
          if (form === 'offset') return `${t.slice(0, 19)}+14:00`;
          if (form === 'date') return t.slice(0, 10);
          if (form === 'overflow') return `${t.slice(0, 8)}31T23:00:00.000Z`;
          if (form === 'time') return '23:30';
          if (form === 'julian') return String(2461041.5 + h / 24);
          // Sorts before every date, yet julianday() reads it as one of the newest times.
          if (form === 'padded') return `0${2461041.5 + h / 24}`;
          if (form === 'words') return 'soon';
          return t;
        })
    : fc.integer({ min: 0, max: 24 * 90 }).map(iso);

const write = (odd: boolean) =>
  fc.record({
    key: fc.integer({ min: 0, max: 30 }).map((i) => `key${i}`),
    ts: timestamp(odd),
    importance: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 9, arbitrary: fc.integer({ min: 0, max: 100 }).map((x) => x / 10) }),
    supersede: fc.integer({ min: 0, max: 3 }).map((x) => x === 0),
    authority: fc.constantFrom(null, 'peer', 'intern', 'manager'),
    scope: fc.constantFrom('global', 'global', 'hypothetical', 'session', 'task'),
  });

/** These write, straight into the table, timestamps only SQLite's julianday() reads (Julian day
 * numbers); PostgreSQL's translation of it reads ISO date-times, all the engine itself stores. */
const JULIAN_NUMBERS = "timestamps written as Julian day numbers are SQLite's julianday() only";

describeStores('assembly read paths', (openStore, kind) => {
  itWhere(
    kind,
    ['sqlite'],
    JULIAN_NUMBERS,
  )('ranks exactly as sorting every valid fact (recent, important, balanced)', () => {
    fc.assert(
      fc.property(
        // One partition in four has timestamps of other forms (the fast path must step aside).
        fc.integer({ min: 0, max: 3 }).chain((form) => fc.array(write(form === 0), { minLength: 1, maxLength: 150 })),
        fc.integer({ min: 1, max: 6 }),
        // From before the first fact to years after the last (ages then differ little, and the
        // importance bound decides).
        fc.integer({ min: -24 * 30, max: 24 * 2000 }),
        fc.option(fc.integer({ min: 0, max: 24 * 90 }), { nil: undefined }),
        (writes, first, nowHour, asOfHour) => {
          const store = openStore();
          try {
            const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
            writes.forEach((w, i) => {
              // Writes refuse a time that is not an ISO-8601 date-time; files from before that rule
              // may still hold one, so such a time is put in place afterwards, as it would be found.
              const accepted = Timestamp.safeParse(w.ts).success;
              const r = p.writeFact({
                key: w.key,
                value: `value ${i}`,
                ts: accepted ? w.ts : iso(0),
                importance: w.importance,
                scope: w.scope as 'global',
                source: { type: 'user', authority: w.authority },
                ...(w.supersede ? { supersedes: w.key } : {}),
              });
              if (!accepted) store.db.prepare('UPDATE facts SET ts = ? WHERE id = ?').run(w.ts, r.factId);
            });
            const view: TimeView =
              asOfHour === undefined ? { now: iso(nowHour), asOf: null, reader: '' } : { now: iso(asOfHour), asOf: iso(asOfHour), reader: '' };
            for (const order of ['balanced', 'important', 'recent'] as const) {
              // scoreAllBelow 0: the bounded path even on these small partitions.
              const got = [...validFactsOrdered(p.ctx, view, order, first, 0)].map((f) => `${f.id} ${f.score}`);
              expect(got, order).toEqual(sortedAll(p, view, order));
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  itWhere(
    kind,
    ['sqlite'],
    JULIAN_NUMBERS,
  )('ranks a fact whose timestamp sorts before every date but reads as recent (balanced)', () => {
    const store = openStore();
    try {
      const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
      for (let i = 0; i < 60; i++) p.writeFact({ key: `key${i}`, value: `value ${i}`, ts: iso((i * 37) % (24 * 90)), importance: (i % 10) + 0.5 });
      // "0" + a Julian day number: julianday() reads it as 2026-03-31, yet it sorts before "2026-".
      // As a file from before times were checked may hold it (writes now refuse it).
      const odd = p.writeFact({ key: 'odd', value: 'odd', ts: iso(0), importance: 10 });
      store.db.prepare('UPDATE facts SET ts = ? WHERE id = ?').run(`0${2461041.5 + 89}`, odd.factId);
      for (const now of [iso(24 * 100), iso(24 * 1000)]) {
        const view: TimeView = { now, asOf: null, reader: '' };
        const got = [...validFactsOrdered(p.ctx, view, 'balanced', 3, 0)].map((f) => `${f.id} ${f.score}`);
        expect(got).toEqual(sortedAll(p, view, 'balanced'));
        expect(got[0]).toContain(p.validFacts().find((f) => f.key === 'odd')?.id);
      }
    } finally {
      store.close();
    }
  });

  it('lists every fact once, in (ts, rid) order, across pages with equal timestamps', () => {
    const store = openStore();
    try {
      const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
      const insert = store.db
        .prepare(`INSERT INTO facts (id, partition_id, org_id, key, value, source_type, ts, created_at, memory_type, status, is_valid, superseded_by)
        VALUES (@id, @pid, @org, @key, @value, 'user', @ts, @ts, 'user', @status, @valid, NULL)`);
      // Seven facts per timestamp, written out of order: page boundaries fall inside a group.
      store.db.transaction(() => {
        for (let i = 0; i < 9_000; i++) {
          const n = (i * 7919) % 9_000;
          insert.run({
            id: `f${n}`,
            pid: p.id,
            org: p.ctx.orgId,
            key: `k${n % 50}`,
            value: `v${n}`,
            ts: iso(Math.floor(n / 7)),
            status: n % 5 === 0 ? 'superseded' : 'active',
            valid: n % 5 === 0 ? 0 : 1,
          });
        }
      })();
      for (const asOf of [undefined, iso(700)]) {
        const r = p.assemble({ strategy: 'balanced', budget: 200, ...(asOf ? { asOf } : {}) });
        const included = new Set(r.provenance.filter((x) => x.status === 'included').map((x) => x.id));
        const swept = r.provenance.filter((x) => x.kind === 'fact' && x.status === 'excluded').map((x) => x.id);
        const all = (store.db.prepare('SELECT id FROM facts WHERE partition_id = ? ORDER BY ts, rid').pluck().all(p.id) as string[]).filter(
          (id) => !included.has(id),
        );
        expect(swept).toEqual(all);
        const reasons = r.counts.excluded;
        expect((reasons.superseded ?? 0) + (reasons.budget ?? 0) + (reasons.future ?? 0)).toBe(all.length);
      }
    } finally {
      store.close();
    }
  });
});
