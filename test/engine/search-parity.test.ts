// Full-text search means the same on both stores: the same facts are written to SQLite (FTS5)
// and to PostgreSQL (PGlite always, the real server when STATELENS_TEST_PG_URL is set), and the
// same searches list the same facts in the same order (the listing, counts, a filtered listing
// under each page plan, dead facts matching a term), and rank the same facts for a term.
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteDialect, dialectOf, type Dialect } from '../../electron/engine/db/dialect';
import { postgresDialect } from '../../electron/engine/db/pg/compile';
import { migratePg } from '../../electron/engine/db/pg/schema';
import { SyncPg } from '../../electron/engine/db/pg/sync-client';
import type { PgTarget } from '../../electron/engine/db/pg/target';
import { deadFactsMatching } from '../../electron/engine/assembly/source';
import { ftsTerm } from '../../electron/engine/assembly/terms';
import { countFacts, listFacts, type PagePlan } from '../../electron/engine/query/list-facts';
import { Store, type StoreOptions } from '../../electron/engine/store';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import { SERVER_SKIP_REASON, SERVER_URL, serverScratchDatabase } from '../helpers/pg';
import { tmpDbPath, tmpDir } from '../helpers/tmp';

function deterministic(): StoreOptions {
  let counter = 0;
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  return { clock: { now: () => new Date((t += 1000)).toISOString() }, idSource: () => String(++counter).padStart(8, '0') };
}

/** Texts that tokenisers cut differently: accents, hyphens, e-mails, dates, numbers, CamelCase,
 * punctuation, other scripts. Keys are distinct except the last two (the first of them dies). */
const FACTS: ReadonlyArray<readonly [string, string]> = [
  ['favourite_place', 'Le Café de Flore, a naïve crème brûlée'],
  ['contact', 'Write to jean-luc.picard@example.com before Friday'],
  ['launch_date', 'The launch is on 2026-03-15T09:30:00Z, confirmed'],
  ['pi', 'Pi is about 3.14159, and 1e5 is a hundred thousand'],
  ['class_name', 'The service is called CamelCaseService in the code'],
  ['budget', 'The budget cap is $100,000 for Q3 revenue'],
  ['budgeting', 'Budgeting happens every quarter'],
  ['irish', "O'Brien said: don't (ever) touch prod!"],
  ['greeting', 'hello, world! “quoted phrase” — done…'],
  ['city', 'Zürich and Москва and München'],
  ['alpha', 'beta gamma'],
  ['mail_word', 'Send an e-mail, not an email'],
  ['snake', 'the x_y variable and under_score_name'],
  ['ticket', 'Ticket #4521: fix the 10%-off coupon (v2.0.1)'],
  ['path', 'Logs live in /var/log/statelens/app.log'],
  ['b', 'b is a single letter'],
  ['fractions', 'Half is ½ and €5 is five euros'],
  ['street', 'Hauptstraße 5'],
  ['status', 'Old status: on hold'],
  ['status', 'New status: shipping this week'],
];

/** Searches as a person types them (the last word is a prefix when it has two characters or more). */
const SEARCHES = [
  'cafe',
  'café',
  'CAFÉ',
  'naive',
  'creme brulee',
  'jean-luc',
  'luc',
  'jean.luc@example.com',
  'picard@example',
  'example',
  '2026-03-15',
  '03 15',
  '09:30',
  '3.14159',
  '14159',
  '1e5',
  'CamelCaseService',
  'camel',
  'service',
  'case',
  'budget cap',
  'cap budget',
  'bud',
  'b',
  'Q3 revenue',
  '100,000',
  "o'brien",
  "don't",
  'hello, world!',
  '"quoted phrase"',
  'zurich',
  'Zürich',
  'москва',
  'МОСКВА',
  'munchen',
  'alpha-beta',
  'beta gamma',
  'e-mail',
  'email',
  'x_y',
  'under',
  '#4521',
  '10%',
  'v2.0.1',
  '/var/log',
  'app.log',
  '€5',
  'status',
  'on hold',
  'nothing-matches-this',
];

function write(p: PartitionHandle): void {
  for (const [key, value] of FACTS) p.writeFact({ key, value });
}

const ids = (rows: ReadonlyArray<{ id: string }>): string[] => rows.map((r) => r.id);

/** Everything a search shows on one store. */
function searchAll(p: PartitionHandle): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const search of SEARCHES) {
    const perPlan: Record<string, string[]> = {};
    for (const plan of ['search', 'sort-index'] as PagePlan[]) {
      perPlan[plan] = ids(listFacts(p.ctx, { filter: { search, validity: 'all' }, sort: { column: 'key', direction: 'asc' } }, { plan }).rows);
    }
    out[search] = {
      listed: ids(p.listFacts({ filter: { search } }).rows),
      // Whole rows: the match ranges too.
      rows: p.listFacts({ filter: { search }, sort: { column: 'key', direction: 'asc' } }).rows,
      count: countFacts(p.ctx, { search }),
      valid: ids(p.listFacts({ filter: { search, validity: 'valid' }, sort: { column: 'value', direction: 'desc' } }).rows),
      perPlan,
    };
  }
  return out;
}

/** The assembly's term lookups: dead facts matching a term, and the facts a term ranks. */
function terms(p: PartitionHandle, dialect: Dialect): Record<string, unknown> {
  const view = { now: '2027-01-01T00:00:00.000Z', asOf: null, reader: '' };
  const fts = dialect.ftsFacts('@match');
  const ranked = p.ctx.db.prepare(
    `SELECT f.id, ${dialect.ftsRank('@match')} AS score FROM ${fts.from} WHERE ${fts.match} AND f.partition_id = @pid ORDER BY score, f.rid DESC`,
  );
  const out: Record<string, unknown> = {};
  for (const [stem, word] of [
    ['status', 'status'],
    ['budget', 'budget'],
    ['cafe', 'café'],
    ['hold', 'hold'],
    ['the', 'the'],
  ] as const) {
    const match = ftsTerm(stem, word);
    const rows = ranked.all({ match: dialect.ftsQuery(match), pid: p.ctx.partitionId }) as Array<{ id: string }>;
    out[match] = { dead: ids(deadFactsMatching(p.ctx, view, match, 50)), ranked: ids(rows) };
  }
  return out;
}

if (!SERVER_URL) console.log(SERVER_SKIP_REASON);
let scratch: ReturnType<typeof serverScratchDatabase> | undefined;
afterAll(() => scratch?.drop());

const targets: Array<{ name: string; enabled: boolean; target: () => PgTarget }> = [
  { name: 'PGlite', enabled: true, target: () => ({ kind: 'pglite', dataDir: tmpDir('statelens-pg-search-') }) },
  {
    name: 'server',
    enabled: SERVER_URL !== undefined,
    target: () => {
      scratch ??= serverScratchDatabase('search');
      return scratch.target;
    },
  },
];

const lite = Store.open(tmpDbPath(), deterministic());
const litePartition = lite.scope({ org: 'acme', kind: 'user', user: 'u1' }, { create: true });
write(litePartition);
const expectedSearches = searchAll(litePartition);
const expectedTerms = terms(litePartition, sqliteDialect);
afterAll(() => lite.close());

describe('search on SQLite (the reference the other store is compared with)', () => {
  it('finds what the FTS5 tokenizer promises', () => {
    const listed = (s: string): unknown => (expectedSearches[s] as { listed: string[] }).listed;
    // Accents fold, e-mails and dates split at punctuation, the last word is a prefix, CamelCase is one word.
    expect(listed('cafe')).toEqual(['f_00000001']);
    expect(listed('picard@example')).toEqual(['f_00000002']);
    expect(listed('03 15')).toEqual(['f_00000003']);
    expect(listed('camel')).toEqual(['f_00000005']);
    expect(listed('case')).toEqual([]);
    expect(listed('bud')).toEqual(['f_00000007', 'f_00000006']);
    expect(listed('москва')).toEqual(['f_00000010']);
    // A phrase never spans the key and the value.
    expect(listed('alpha-beta')).toEqual([]);
    expect(listed('beta gamma')).toEqual(['f_00000011']);
    // Match ranges: a phrase from its first token to its last, each word of the search apart.
    const matches = (s: string): unknown => (expectedSearches[s] as { rows: Array<{ match: unknown }> }).rows.map((r) => r.match);
    expect(matches('jean-luc')).toEqual([{ key: [], value: [[9, 17]] }]);
    expect(matches('budget cap')).toEqual([
      {
        key: [[0, 6]],
        value: [
          [4, 10],
          [11, 14],
        ],
      },
    ]);
    expect(matches('CAFÉ')).toEqual([{ key: [], value: [[3, 7]] }]);
  });
});

for (const t of targets) {
  describe.skipIf(!t.enabled)(`search on ${t.name}`, () => {
    it('lists, counts and ranks the same facts as SQLite', () => {
      const target = t.target();
      const setup = SyncPg.open(target);
      migratePg(setup);
      setup.close();
      const store = Store.openPostgres(target, deterministic());
      try {
        const p = store.scope({ org: 'acme', kind: 'user', user: 'u1' }, { create: true });
        expect(dialectOf(p.ctx.db)).toBe(postgresDialect);
        write(p);
        expect(searchAll(p)).toEqual(expectedSearches);
        expect(terms(p, postgresDialect)).toEqual(expectedTerms);
        // The match is served by the GIN index (off sequential scans: on a table this small the
        // planner would rather read it all).
        store.db.exec('SET enable_seqscan = off');
        const plan = store.db.prepare(`EXPLAIN ${postgresDialect.ftsRids('@fts')}`).all({ fts: postgresDialect.ftsQuery('"jean" "luc"*') });
        store.db.exec('SET enable_seqscan = on');
        expect(JSON.stringify(plan)).toMatch(/Bitmap Index Scan on facts_search/);
        // Known differences, both from PostgreSQL's unaccent rules and parser: letters FTS5
        // keeps apart from their base are folded (ß is ss), and a vulgar fraction is no word.
        expect(ids(p.listFacts({ filter: { search: 'strasse' } }).rows)).toEqual(ids(litePartition.listFacts({ filter: { search: 'straße' } }).rows));
        expect(ids(litePartition.listFacts({ filter: { search: 'strasse' } }).rows)).toEqual([]);
        expect(ids(litePartition.listFacts({ filter: { search: '½' } }).rows)).toEqual(['f_00000017']);
        expect(ids(p.listFacts({ filter: { search: '½' } }).rows)).toEqual([]);
      } finally {
        store.close();
      }
    });
  });
}
