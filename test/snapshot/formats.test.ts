// The human and tool formats (Markdown, CSV, StateBench, a partition's SQLite copy) on every store, one
// consistent snapshot while an agent writes (in this process between chunks, and in another
// process continuously), progress, and cancellation without leftovers.
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sqliteOf } from '../../electron/engine/db/connection';
import { importStatebenchFile } from '../../electron/engine/import/statebench';
import { csvCell } from '../../electron/engine/snapshot/csv';
import { exportStore } from '../../electron/engine/snapshot/export';
import { mdText } from '../../electron/engine/snapshot/markdown';
import { spawnWriter } from '../../electron/bench/load/harness';
import { Store } from '../../electron/engine/store';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations';
import { PG_SCHEMA_VERSION } from '../../electron/engine/db/pg/migrations';
import { verifyDatabase } from '../../electron/engine/verify/verify';
import { EXPORT_FORMATS, type ExportFormat, type ExportProgress, type ExportSummary } from '../../shared/snapshot';
import { describeStores, itWhere } from '../helpers/stores';
import { tmpDir } from '../helpers/tmp';
import { ORG, USER, populate } from './populate';

/** RFC 4180 reader, enough to check what we write. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

async function exportText(store: Store, format: 'markdown' | 'csv' | 'statebench' | 'ndjson', extra: Record<string, unknown> = {}): Promise<string> {
  const out = path.join(tmpDir(), `x.${format}`);
  await exportStore(store, { format, out, ...extra });
  return fs.readFileSync(out, 'utf8');
}

describeStores('markdown report', (openStore, kind) => {
  it('shows each partition with identity, valid facts by memory type, chains, reviews, proposals, constraints', async () => {
    const store = openStore();
    populate(store);
    const md = await exportText(store, 'markdown');
    expect(md).toMatch(/^# Statelens memory report/);
    // The store it was read from, with that store's own schema version.
    expect(md).toContain(
      kind === 'sqlite' ? `from a SQLite database of schema version ${SCHEMA_VERSION};` : `from a PostgreSQL database of schema version ${PG_SCHEMA_VERSION};`,
    );
    expect(md).toContain('## acme / user u1');
    expect(md).toContain('## acme / organisational knowledge');
    expect(md).toMatch(/### Identity[\s\S]*\| Ann \| u1 \| manager \| Finance/);
    expect(md).toContain('#### User memory');
    expect(md).toContain('#### Organisational memory');
    expect(md).toContain('### Constraints');
    expect(md).toMatch(/### Needs review[\s\S]*decision[\s\S]*depends on/);
    expect(md).toMatch(/### Proposals[\s\S]*Let's offer 25%[\s\S]*Max discount is 15%/);
    const chains = md.slice(md.indexOf('### Supersession chains'));
    // The user's own words carry the identity's authority (manager), recorded with the source.
    expect(chains).toMatch(
      /meeting = Tuesday 2pm \(user \/ manager\) — superseded \(implicit\): same key with a conflicting value\n2\. .* · meeting = Thursday 3pm \(user \/ manager\) — \*\*current\*\*/,
    );
    expect(md).toContain('### Agent state');
    expect(md).toMatch(/1 pending, 1 confirmed, 0 failed/);
    expect(md).toContain('### Context documents');
    // Superseded values appear only inside chains, never among the valid facts.
    const valid = md.slice(md.indexOf('### Valid facts'), md.indexOf('### Constraints'));
    expect(valid).not.toContain('Tuesday 2pm');
    // Values are escaped: no raw HTML, pipes or line breaks inside table cells.
    expect(md).not.toContain('<b>');
    expect(md).toContain('\\<b\\>bold\\</b\\>');
    expect(mdText('a|b\nc')).toBe('a\\|b ⏎ c');
    store.close();
  });
});

describeStores('csv', (openStore) => {
  it('is RFC 4180 with one row per fact and formulas neutralised', async () => {
    const store = openStore();
    populate(store);
    const text = await exportText(store, 'csv');
    const rows = parseCsv(text);
    const [header, ...body] = rows;
    expect(header?.[0]).toBe('partition');
    const total = store.listPartitions().reduce((a, p) => a + p.facts, 0);
    expect(body).toHaveLength(total);
    const col = (name: string) => header?.indexOf(name) ?? -1;
    const multi = body.find((r) => r[col('key')] === 'multi|line');
    expect(multi?.[col('value')]).toBe('first line\nsecond, "quoted" | piped <b>bold</b>');
    const formula = body.find((r) => r[col('key')] === 'formula');
    expect(formula?.[col('value')]).toBe(`'=HYPERLINK("http://evil.example","click")`);
    const decision = body.find((r) => r[col('key')] === 'decision');
    expect(decision?.[col('needs_review')]).toBe('true');
    expect(decision?.[col('depends_on')]).toMatch(/^f_/);
    for (const c of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx']) expect(csvCell(c).startsWith(`'`) || csvCell(c).startsWith(`"'`)).toBe(true);
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(-1)).toBe('-1');
    store.close();
  });

  it('exports a filtered view (the inspector filter), for one partition', async () => {
    const store = openStore();
    populate(store);
    const u = store.scope(USER);
    const valid = parseCsv(await exportText(store, 'csv', { partitionId: u.id, filter: { validity: 'valid' } })).slice(1);
    expect(valid).toHaveLength(u.validFacts().length);
    const search = parseCsv(await exportText(store, 'csv', { partitionId: u.id, filter: { search: 'Thursday' } })).slice(1);
    expect(search.map((r) => r[4])).toEqual(['Thursday 3pm']);
    const review = parseCsv(await exportText(store, 'csv', { filter: { needsReview: true } })).slice(1);
    expect(review.map((r) => r[3])).toEqual(['decision']);
    await expect(exportText(store, 'csv', { filter: { validity: 'sometimes' } })).rejects.toThrow(/Invalid filter/);
    store.close();
  });
});

describeStores('statebench initial_state', (openStore) => {
  it('writes one timeline per user partition in StateBench field names, and replays', async () => {
    const store = openStore();
    populate(store);
    const text = await exportText(store, 'statebench');
    interface Timeline {
      id: string;
      events: unknown[];
      initial_state: {
        identity_role: unknown;
        persistent_facts: Array<Record<string, unknown> & { key: string; value: string; is_valid: boolean }>;
        working_set: unknown[];
        environment: Record<string, unknown>;
      };
    }
    const timelines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Timeline);
    expect(timelines.map((t) => t.id)).toEqual(['u1', 'u2']);
    const t = timelines[0] as Timeline;
    expect(t.initial_state.identity_role).toEqual({
      user_name: 'Ann',
      authority: 'manager',
      department: 'Finance',
      organization: 'Acme',
      communication_style: 'brief',
    });
    const fact = t.initial_state.persistent_facts.find((f) => f.key === 'meeting' && f.is_valid) ?? {};
    expect(Object.keys(fact).sort()).toEqual(
      [
        'constraint_type',
        'depends_on',
        'derived_facts',
        'id',
        'is_constraint',
        'is_valid',
        'key',
        'scope',
        'source',
        'superseded_by',
        'supersedes',
        'ts',
        'value',
      ].sort(),
    );
    expect(t.initial_state.persistent_facts.some((f) => f.value === "Let's offer 25%")).toBe(false); // proposals are not StateBench state
    expect(t.initial_state.environment).toMatchObject({ now: '2026-01-04T00:00:00Z', timezone: 'Europe/Berlin' });
    expect(t.initial_state.working_set[0]).toMatchObject({ item_type: 'turn', content: 'Hello there' });
    expect(t.events).toEqual([]);

    // Replayed by the StateBench importer, the same facts are valid.
    const file = path.join(tmpDir(), 'sb.jsonl');
    fs.writeFileSync(file, text);
    const replay = openStore();
    importStatebenchFile(replay, file);
    const pairs = (facts: Array<{ key: string; value: string }>) => facts.map((f) => `${f.key}=${f.value}`).sort();
    expect(pairs(replay.scope(USER).validFacts())).toEqual(pairs(store.scope(USER).validFacts()));
    await expect(exportText(store, 'statebench', { partitionId: store.scope(ORG).id })).rejects.toThrow(/not a user partition/);
    store.close();
    replay.close();
  });
});

describeStores('sqlite copy of one partition', (openStore) => {
  it('is a Statelens database holding only that partition, opened read-only', async () => {
    const store = openStore();
    populate(store);
    const out = path.join(tmpDir(), 'u1.db');
    const summary = await exportStore(store, { format: 'sqlite', out, partitionId: store.scope(USER).id });
    expect(summary.counts.partition).toBe(1);
    const copy = Store.open(out, { readonly: true });
    expect(copy.listPartitions().map((p) => p.label)).toEqual(['acme / user u1']);
    expect(copy.scope(USER).allFacts()).toEqual(store.scope(USER).allFacts());
    expect(sqliteOf(copy.db, 'PRAGMA integrity_check').pragma('integrity_check', { simple: true })).toBe('ok');
    copy.close();
    store.close();
  });
});

describeStores('one consistent snapshot while an agent writes', (openStore, kind) => {
  function bulk(store: Store, n: number, prefix: string): void {
    const h = store.scope(USER, { create: true });
    h.writeFacts(Array.from({ length: n }, (_, i) => ({ key: `${prefix}_${i}`, value: `v${i}`, ts: '2026-02-01T00:00:00Z' })));
  }

  for (const format of ['ndjson', 'json', 'csv', 'markdown'] as const) {
    itWhere(
      kind,
      ['sqlite', 'server'],
      "PGlite is one connection: the export's snapshot transaction is the store's own, so no write can commit while it runs",
    )(`${format}: writes committed during the export are not in it`, async () => {
      const store = openStore();
      bulk(store, 3000, 'before');
      const out = path.join(tmpDir(), `c.${format}`);
      let writes = 0;
      await exportStore(store, {
        format,
        out,
        // The agent's connection commits between the snapshot and every chunk of output.
        onSnapshotOpen: () => bulk(store, 10, `opened`),
        onProgress: () => {
          bulk(store, 5, `during${writes++}`);
        },
      });
      expect(writes).toBeGreaterThan(0);
      const text = fs.readFileSync(out, 'utf8');
      expect(text).toMatch(/before\\?_2999/);
      expect(text).not.toMatch(/opened\\?_|during\d+\\?_/);
      expect(store.scope(USER).allFacts().length).toBe(3000 + 10 + 5 * writes);
      store.close();
    });
  }

  itWhere(kind, ['sqlite'], 'the writer process opens the SQLite file by its path')(
    'every format is one consistent snapshot while another process writes continuously',
    async () => {
      const store = openStore();
      bulk(store, 20_000, 'before');
      // The agent: a separate process committing 10-fact transactions (with supersessions and
      // dependencies) into three partitions of its own, for as long as the exports take.
      const writer = spawnWriter({ db: store.path, seconds: 300, rate: 1500, batch: WRITER_BATCH, users: 3 });
      const dir = tmpDir();
      const seen: string[] = [];
      try {
        const ready = await writer.waitFor((m) => m.type === 'ready', 60_000);
        const writerPartitions = ready.partitions as number[];
        // Chains and edges of its own exist before the first export starts.
        await writer.waitFor((m) => m.type === 'progress' && (m.written as number) >= 1000, 60_000);
        const runs: Array<{ format: ExportFormat; partitionId: number | null }> = [
          ...EXPORT_FORMATS.map((format) => ({ format, partitionId: null })),
          { format: 'sqlite', partitionId: writerPartitions[0] ?? null },
        ];
        for (const { format, partitionId } of runs) {
          const label = `${format}${partitionId === null ? '' : ` (partition ${partitionId})`}`;
          const out = path.join(dir, `live-${format}-${partitionId ?? 'all'}`);
          const progress: ExportProgress[] = [];
          const before = factCount(store, partitionId);
          const summary = await exportStore(store, { format, out, partitionId, onProgress: (p) => progress.push(p) });
          const after = factCount(store, partitionId);
          // The writer committed while the export ran; the export holds one state between the two.
          expect(after, `${label}: no write landed during the export`).toBeGreaterThan(before);
          const facts = checkExport(format, out, summary, progress, writerPartitions, label);
          expect(facts, label).toBeGreaterThanOrEqual(before);
          expect(facts, label).toBeLessThanOrEqual(after);
          seen.push(`${label}: ${facts} facts (${before} before, ${after} after)`);
        }
      } finally {
        writer.proc.kill('SIGTERM');
      }
      const done = await writer.waitFor((m) => m.type === 'done', 60_000);
      await writer.exited;
      console.log(`exports under a live writer (${done.written as number} facts written at ${Math.round(done.rate as number)}/s):\n  ${seen.join('\n  ')}`);
      expect(done.errorCount, JSON.stringify(done.errors)).toBe(0);
      expect(done.written).toBe(done.attempted);
      store.close();
    },
    600_000,
  );
});

const WRITER_BATCH = 10;

function factCount(store: Store, partitionId: number | null): number {
  return store.db.prepare('SELECT count(*) FROM facts WHERE ? IS NULL OR partition_id = ?').pluck().get(partitionId, partitionId) as number;
}

interface FactLinks {
  readonly id: string;
  readonly partition: string | number;
  readonly supersedes: string | null;
  readonly supersededBy: string | null;
  readonly proposalFor?: string | null;
  readonly isValid?: boolean;
}

/** Facts and edges of one export refer only to each other, and the writer's transactions are whole. */
function checkLinks(
  label: string,
  facts: readonly FactLinks[],
  edges: ReadonlyArray<{ dependent: string; dependsOn: string }>,
  writerPartitions: ReadonlyArray<string | number>,
): void {
  const ids = new Set(facts.map((f) => f.id));
  expect(ids.size, `${label}: fact ids repeat`).toBe(facts.length);
  const dangling: string[] = [];
  for (const f of facts) {
    for (const [field, target] of [
      ['supersedes', f.supersedes],
      ['supersededBy', f.supersededBy],
      ['proposalFor', f.proposalFor ?? null],
    ] as const) {
      if (target !== null && !ids.has(target)) dangling.push(`${f.id}.${field} -> ${target}`);
    }
    // A version some later one replaced is no longer valid in the same snapshot.
    if (f.supersededBy !== null && f.isValid === true) dangling.push(`${f.id} is superseded by ${f.supersededBy} yet valid`);
  }
  for (const e of edges) if (!ids.has(e.dependent) || !ids.has(e.dependsOn)) dangling.push(`edge ${e.dependent} -> ${e.dependsOn}`);
  expect(dangling.slice(0, 10), `${label}: ${dangling.length} references leave the export`).toEqual([]);
  // The writer's partitions have chains: the check above had pointers to follow.
  if (writerPartitions.length > 0)
    expect(
      facts.some((f) => f.supersedes !== null),
      `${label}: no supersession to check`,
    ).toBe(true);
  for (const p of writerPartitions) {
    const n = facts.filter((f) => f.partition === p).length;
    expect(n % WRITER_BATCH, `${label}: partition ${p} holds ${n} of the writer's facts, part of a transaction`).toBe(0);
  }
}

interface SnapshotFact {
  readonly type: 'fact';
  readonly partition: number;
  readonly fact: { id: string; supersedes: string | null; supersededBy: string | null; proposalFor: string | null; isValid: boolean };
}

/** Checks one export and returns how many facts it holds. */
function checkExport(
  format: ExportFormat,
  out: string,
  summary: ExportSummary,
  progress: readonly ExportProgress[],
  writerPartitions: readonly number[],
  label: string,
): number {
  switch (format) {
    case 'json':
    case 'ndjson': {
      let header: { type?: string; format?: string };
      let records: Array<{ type: string }>;
      let end: { type?: string; records?: number; counts?: Record<string, number> };
      const text = fs.readFileSync(out, 'utf8');
      if (format === 'json') {
        const doc = JSON.parse(text) as { header: typeof header; records: typeof records; end: typeof end };
        ({ header, records, end } = doc);
      } else {
        const lines = text
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { type: string });
        header = lines[0] ?? {};
        end = lines[lines.length - 1] ?? {};
        records = lines.slice(1, -1);
      }
      expect(header, label).toMatchObject({ type: 'header', format: 'statelens-snapshot' });
      expect(end.type, label).toBe('end');
      // The end record counts what is in the file, by type, and the count taken before the walk
      // (the progress total) is the same: one read snapshot for both.
      expect(end.records, label).toBe(records.length);
      const byType: Record<string, number> = {};
      for (const r of records) byType[r.type] = (byType[r.type] ?? 0) + 1;
      expect(end.counts, label).toEqual(byType);
      expect(summary.records, label).toBe(records.length);
      expect(progress[0]?.total, label).toBe(records.length);
      const facts = records.filter((r): r is SnapshotFact => r.type === 'fact');
      const partitions = new Set(records.filter((r) => r.type === 'partition').map((r) => (r as unknown as { id: number }).id));
      expect(
        facts.every((f) => partitions.has(f.partition)),
        `${label}: a fact of a partition not in the export`,
      ).toBe(true);
      const edges = records.filter((r) => r.type === 'edge') as unknown as Array<{ dependent: string; dependsOn: string }>;
      checkLinks(
        label,
        facts.map((f) => ({ ...f.fact, partition: f.partition })),
        edges,
        writerPartitions,
      );
      return facts.length;
    }
    case 'sqlite': {
      const copy = Store.open(out, { readonly: true });
      try {
        const failed = verifyDatabase(copy).checks.filter((c) => !c.ok);
        expect(failed, label).toEqual([]);
        const facts = copy.db
          .prepare(
            'SELECT id, partition_id AS partition, supersedes, superseded_by AS supersededBy, proposal_for AS proposalFor, is_valid AS isValid FROM facts',
          )
          .all() as Array<Omit<FactLinks, 'isValid'> & { isValid: number }>;
        const edges = copy.db.prepare('SELECT dependent, depends_on AS dependsOn FROM fact_edges').all() as Array<{ dependent: string; dependsOn: string }>;
        const partitions = copy.db.prepare('SELECT id FROM partitions').pluck().all() as number[];
        // A partition's copy holds that partition alone (under the id it gets there).
        const whole = partitions.length === 1 ? partitions : writerPartitions.filter((p) => partitions.includes(p));
        checkLinks(
          label,
          facts.map((f) => ({ ...f, isValid: f.isValid === 1 })),
          edges,
          whole,
        );
        expect(summary.counts.fact, label).toBe(facts.length);
        return facts.length;
      } finally {
        copy.close();
      }
    }
    case 'csv': {
      const [header, ...rows] = parseCsv(fs.readFileSync(out, 'utf8'));
      const col = (name: string) => {
        const i = header?.indexOf(name) ?? -1;
        if (i < 0) throw new Error(`${label}: no ${name} column`);
        return i;
      };
      const cell = (r: readonly string[], name: string) => r[col(name)] ?? '';
      expect(summary.records, label).toBe(rows.length);
      // The count taken before the rows (the progress total) is the number of rows written.
      expect(progress[0]?.total, label).toBe(rows.length);
      const orNull = (v: string) => (v === '' ? null : v);
      const facts = rows.map((r) => ({
        id: cell(r, 'id'),
        partition: cell(r, 'partition'),
        supersedes: orNull(cell(r, 'supersedes')),
        supersededBy: orNull(cell(r, 'superseded_by')),
        proposalFor: orNull(cell(r, 'proposal_for')),
        isValid: cell(r, 'is_valid') === 'true',
      }));
      const edges = rows.flatMap((r) =>
        cell(r, 'depends_on')
          .split(' ')
          .filter(Boolean)
          .map((d) => ({ dependent: cell(r, 'id'), dependsOn: d })),
      );
      const writerLabels = [...new Set(facts.map((f) => f.partition).filter((p) => /writer\d+$/.test(p)))];
      expect(writerLabels, label).toHaveLength(writerPartitions.length);
      checkLinks(label, facts, edges, writerLabels);
      return rows.length;
    }
    case 'markdown': {
      const md = fs.readFileSync(out, 'utf8');
      const sections = md.split('\n## ').slice(1);
      expect(md, label).toContain(`; ${sections.length} partitions.`);
      let validRows = 0;
      let chains = 0;
      for (const section of sections) {
        const from = section.indexOf('### Valid facts');
        const to = section.indexOf('\n### ', from + 1);
        const valid = section.slice(from, to < 0 ? undefined : to);
        const rows = valid.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| key |') && !l.startsWith('| ---'));
        validRows += rows.length;
        // Each chain goes back from its head to a first version, and a current head is among the
        // partition's valid facts: chains and tables come from the same state.
        for (const m of section.matchAll(/Chain \d+, (\d+) versions:\n\n((?:\d+\. .*\n)+)/g)) {
          chains++;
          const lines = (m[2] ?? '').trimEnd().split('\n');
          expect(lines.length, `${label}: chain "${lines[0]}"`).toBe(Number(m[1]));
          expect(lines.length, `${label}: a chain whose head's predecessor is missing: ${lines[0]}`).toBeGreaterThanOrEqual(2);
          const head = lines[lines.length - 1] ?? '';
          if (!head.endsWith('— **current**')) continue;
          const kv = /^\d+\. [^·]+ · (\S+) = (.*?) \(/.exec(head);
          expect(kv, `${label}: ${head}`).not.toBeNull();
          expect(
            rows.some((r) => r.startsWith(`| ${kv?.[1]} | ${kv?.[2]} |`)),
            `${label}: current head ${head} is not among the valid facts`,
          ).toBe(true);
        }
      }
      expect(chains, label).toBeGreaterThan(0);
      expect(summary.records, label).toBe(validRows);
      // The report's progress total is the number of facts in its snapshot.
      return progress[0]?.total ?? -1;
    }
    case 'statebench': {
      const timelines = fs
        .readFileSync(out, 'utf8')
        .trimEnd()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              id: string;
              initial_state: {
                persistent_facts: Array<{ id: string; supersedes: string | null; superseded_by: string | null; is_valid: boolean; depends_on: string[] }>;
              };
            },
        );
      expect(summary.records, label).toBe(timelines.length);
      let facts = 0;
      const writerTimelines = timelines.filter((t) => /^writer\d+$/.test(t.id));
      expect(writerTimelines, label).toHaveLength(writerPartitions.length);
      for (const t of timelines) {
        const pf = t.initial_state.persistent_facts;
        facts += pf.length;
        checkLinks(
          `${label} ${t.id}`,
          pf.map((f) => ({ id: f.id, partition: t.id, supersedes: f.supersedes, supersededBy: f.superseded_by, isValid: f.is_valid })),
          pf.flatMap((f) => f.depends_on.map((d) => ({ dependent: f.id, dependsOn: d }))),
          /^writer\d+$/.test(t.id) ? [t.id] : [],
        );
      }
      return facts;
    }
  }
}

describeStores('progress and cancellation', (openStore) => {
  it('reports progress up to the total', async () => {
    const store = openStore();
    store.scope(USER, { create: true }).writeFacts(Array.from({ length: 2500 }, (_, i) => ({ key: `k${i}`, value: 'v' })));
    const seen: ExportProgress[] = [];
    const summary = await exportStore(store, { format: 'ndjson', out: path.join(tmpDir(), 'p.ndjson'), onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(2);
    const last = seen.at(-1);
    expect(last?.done).toBe(summary.records);
    expect(last?.total).toBe(summary.records);
    for (let i = 1; i < seen.length; i++) expect(seen[i]?.done).toBeGreaterThanOrEqual(seen[i - 1]?.done ?? 0);
    store.close();
  });

  for (const format of ['ndjson', 'csv', 'markdown', 'sqlite'] as const) {
    it(`${format}: aborting stops the export and leaves no file`, async () => {
      const store = openStore();
      store.scope(USER, { create: true }).writeFacts(Array.from({ length: 3000 }, (_, i) => ({ key: `k${i}`, value: 'v' })));
      const dir = tmpDir();
      const out = path.join(dir, `a.${format}`);
      const abort = new AbortController();
      const run = exportStore(store, {
        format,
        out,
        signal: abort.signal,
        partitionId: format === 'sqlite' ? store.scope(USER).id : null,
        onProgress: () => abort.abort(),
      });
      await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(fs.readdirSync(dir)).toEqual([]);
      store.close();
    });
  }

  it('refuses to overwrite an existing file unless asked', async () => {
    const store = openStore();
    populate(store);
    const out = path.join(tmpDir(), 'exists.ndjson');
    fs.writeFileSync(out, 'keep me');
    await expect(exportStore(store, { format: 'ndjson', out })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(fs.readFileSync(out, 'utf8')).toBe('keep me');
    await exportStore(store, { format: 'ndjson', out, overwrite: true });
    expect(fs.readFileSync(out, 'utf8')).toMatch(/^\{"type":"header"/);
    await expect(exportStore(store, { format: 'ndjson', out: path.join(tmpDir(), 'x.ndjson'), partitionId: 999 })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    store.close();
  });
});
