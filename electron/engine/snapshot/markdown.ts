// The Markdown report a person can read: per partition its identity, environment, valid facts by
// memory type, constraints, needs_review flags with their cause, supersession chains, proposals,
// working set, agent state and context documents. Values are escaped so nothing renders as markup.
// A selection (a filtered or as-of export) narrows the facts; as of a time, "valid" means valid
// then and the other layers show what existed by then.
import type { EngineDb } from '../db/connection';
import { FACT_COLUMNS, type FactRow } from '../facts/rows';
import { LATEST_SIGNALS_SQL } from '../layers/environment';
import type { IdentityRow } from '../layers/identity';
import { partitionLabel, refFromRow, type PartitionRow } from '../partitions/partitions';
import type { SnapshotReader } from './reader';
import { existedBy, factAsExported, SELECTED_SQL, type ExportSelection } from './selection';
import { Ticker, type ExportControl, type FileSink } from './sink';

const MAX_CELL = 1000;

/** Escapes Markdown punctuation and flattens line breaks so a value stays inside its table cell. */
export function mdText(value: unknown, max = MAX_CELL): string {
  if (value === null || value === undefined || value === '') return '—';
  let text = String(value);
  if (text.length > max) text = `${text.slice(0, max)}… (${text.length - max} more characters)`;
  return text.replace(/[\\`*_[\]<>|#~!]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ⏎ ');
}

function table(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  const head = `| ${header.join(' | ')} |\n| ${header.map(() => '---').join(' | ')} |\n`;
  return head + rows.map((r) => `| ${r.map((c) => mdText(c)).join(' | ')} |\n`).join('');
}

function source(f: FactRow): string {
  return [f.source_type, f.source_authority, f.source_identity].filter(Boolean).join(' / ');
}

const MEMORY_TITLES: Record<string, string> = { user: 'User memory', capability: 'Capability memory', organizational: 'Organisational memory' };

interface Section {
  readonly sql: string;
  readonly title: string;
}

/** `@p` is the partition; `@as_of` the selection's time when it has one. */
function factQueries(selection: ExportSelection | undefined) {
  const valid = selection?.asOf != null ? "(f.status <> 'proposal' AND f.ts <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of))" : 'f.is_valid = 1';
  const only = selection ? ` AND ${SELECTED_SQL}` : '';
  const facts = (where: string) => `SELECT ${FACT_COLUMNS} FROM facts f WHERE f.partition_id = @p AND ${where}${only} ORDER BY f.ts, f.rid`;
  return {
    byType: facts(`${valid} AND f.memory_type = @type`),
    sections: {
      constraints: { title: 'Constraints', sql: facts(`${valid} AND f.is_constraint = 1`) },
      review: { title: 'Needs review', sql: facts('f.needs_review = 1') },
      proposals: { title: 'Proposals (lower authority, not applied)', sql: facts("f.status = 'proposal'") },
    } satisfies Record<'constraints' | 'review' | 'proposals', Section>,
    chainHeads: facts('f.supersedes IS NOT NULL'),
  };
}

export async function writeMarkdown(
  db: EngineDb,
  sink: FileSink,
  partitionId: number | null,
  meta: { exportedAt: string; source: SnapshotReader['source'] },
  control: ExportControl,
  selection?: ExportSelection,
): Promise<number> {
  const queries = factQueries(selection);
  const asOf = selection?.asOf ?? null;
  const bind = (p: number, extra: Record<string, unknown> = {}) => ({ p, ...(asOf !== null ? { as_of: asOf } : {}), ...extra });
  const partitions = db
    .prepare('SELECT * FROM partitions WHERE @p IS NULL OR id = @p ORDER BY org_id, kind, subject')
    .all({ p: partitionId }) as PartitionRow[];
  const total = selection
    ? selection.facts
    : (db.prepare('SELECT count(*) FROM facts WHERE @p IS NULL OR partition_id = @p').pluck().get({ p: partitionId }) as number);
  const ticker = new Ticker(control, 'report', total);
  const byIdAll = db.prepare(`SELECT ${FACT_COLUMNS} FROM facts f WHERE f.id = ?`);
  // Within a selection, chains and proposals refer only to facts in the report.
  const byId = { get: (id: string) => (selection && !selection.has(id) ? undefined : (byIdAll.get(id) as FactRow | undefined)) };
  await sink.write(
    `# Statelens memory report\n\nExported ${mdText(meta.exportedAt)} from a ${meta.source.kind} database of schema version ${meta.source.schemaVersion}; ` +
      `${partitions.length} partition${partitions.length === 1 ? '' : 's'}. Superseded facts appear only in their chains.\n\n` +
      (selection ? `${selectionText(selection)}\n\n` : ''),
  );
  for (const p of partitions) {
    const ref = refFromRow(p);
    await sink.write(
      `## ${mdText(partitionLabel(ref))}\n\nPartition ${p.id}, created ${mdText(p.created_at)}${p.maturity ? `, agent maturity ${p.maturity}` : ''}.\n\n`,
    );

    // One identity per session that set one (each session's checks read its own).
    const identities = db.prepare('SELECT * FROM identities WHERE partition_id = ? ORDER BY session_id').all(p.id) as IdentityRow[];
    await sink.write('### Identity\n\n');
    if (identities.length > 0) {
      await sink.write(
        table(
          ['session', 'user', 'id', 'authority', 'department', 'organisation', 'permissions', 'style'],
          identities.map((identity) => [
            identity.session_id,
            identity.user_name,
            identity.user_id,
            identity.authority,
            identity.department,
            identity.organization,
            (JSON.parse(identity.permissions) as string[]).join(', '),
            identity.communication_style,
          ]),
        ) + '\n',
      );
    } else await sink.write('No identity recorded.\n\n');

    const env = db.prepare(LATEST_SIGNALS_SQL).all({ p: p.id, at: asOf }) as Array<{ key: string; value: string; observed_at: string }>;
    if (env.length > 0)
      await sink.write(
        '### Environment\n\n' +
          table(
            ['signal', 'value', 'observed'],
            env.map((e) => [e.key, e.value, e.observed_at]),
          ) +
          '\n',
      );

    await sink.write('### Valid facts\n\n');
    for (const type of ['user', 'capability', 'organizational']) {
      const facts = db.prepare(queries.byType).iterate(bind(p.id, { type })) as IterableIterator<FactRow>;
      let header = false;
      for (const row of facts) {
        const f = factAsExported(row, selection);
        if (!header) {
          await sink.write(
            `#### ${MEMORY_TITLES[type]}\n\n| key | value | source | since | scope | importance | flags |\n| --- | --- | --- | --- | --- | --- | --- |\n`,
          );
          header = true;
        }
        const flags = [
          f.is_constraint ? `constraint (${f.constraint_type ?? 'policy'})` : '',
          f.needs_review ? 'needs review' : '',
          f.level ? `level ${f.level}` : '',
        ]
          .filter(Boolean)
          .join(', ');
        await sink.write(
          `| ${[f.key, f.value, source(f), f.ts, f.scope === 'global' ? 'global' : `${f.scope}${f.scope_id ? ` ${f.scope_id}` : ''}`, f.importance, flags].map((c) => mdText(c)).join(' | ')} |\n`,
        );
        await ticker.tick();
      }
      if (header) await sink.write('\n');
    }

    for (const key of ['constraints', 'review', 'proposals'] as const) {
      const section = queries.sections[key];
      let header = false;
      for (const row of db.prepare(section.sql).iterate(bind(p.id)) as IterableIterator<FactRow>) {
        const f = factAsExported(row, selection);
        if (!header) {
          const cols =
            key === 'review'
              ? ['key', 'value', 'cause', 'caused by fact']
              : key === 'proposals'
                ? ['key', 'value', 'source', 'proposed against', 'reason']
                : ['key', 'value', 'type', 'source'];
          await sink.write(`### ${section.title}\n\n| ${cols.join(' | ')} |\n| ${cols.map(() => '---').join(' | ')} |\n`);
          header = true;
        }
        const cells =
          key === 'review'
            ? [f.key, f.value, f.review_cause, f.review_cause_fact]
            : key === 'proposals'
              ? [f.key, f.value, source(f), f.proposal_for ? `${f.proposal_for}: ${byId.get(f.proposal_for)?.value ?? '(gone)'}` : null, f.supersession_reason]
              : [f.key, f.value, f.constraint_type, source(f)];
        await sink.write(`| ${cells.map((c) => mdText(c)).join(' | ')} |\n`);
      }
      if (header) await sink.write('\n');
    }

    // Chains: from each latest version (it superseded something, nothing superseded it) back to the first.
    let chains = 0;
    for (const row of db.prepare(queries.chainHeads).iterate(bind(p.id)) as IterableIterator<FactRow>) {
      const head = factAsExported(row, selection);
      // A head: nothing (in the report) superseded it.
      if (head.superseded_by !== null || head.supersedes === null) continue;
      const versions: FactRow[] = [head];
      const seen = new Set([head.id]);
      let cur = head;
      while (cur.supersedes) {
        const found = byId.get(cur.supersedes);
        const prev = found && factAsExported(found, selection);
        if (!prev || seen.has(prev.id)) break;
        seen.add(prev.id);
        versions.unshift(prev);
        cur = prev;
      }
      if (selection && versions.length < 2) continue;
      if (chains === 0) await sink.write('### Supersession chains\n\n');
      chains++;
      const lines = versions.map((v, i) => {
        const next = versions[i + 1];
        const how = next
          ? ` — superseded (${next.supersession_rule ?? v.supersession_rule ?? 'explicit'}): ${mdText(v.supersession_reason)}`
          : v.is_valid
            ? ' — **current**'
            : ' — no longer valid';
        return `${i + 1}. ${mdText(v.ts)} · ${mdText(v.key)} = ${mdText(v.value, 300)} (${mdText(source(v))})${how}`;
      });
      await sink.write(`Chain ${chains}, ${versions.length} versions:\n\n${lines.join('\n')}\n\n`);
    }

    const working = db
      .prepare('SELECT session_id, item_type, speaker, value, created_at, expires_at FROM working_items WHERE partition_id = ? ORDER BY created_at, rid')
      .iterate(p.id) as IterableIterator<{
      session_id: string;
      item_type: string;
      speaker: string | null;
      value: string;
      created_at: string;
      expires_at: string | null;
    }>;
    let ws = false;
    for (const w of working) {
      if (!existedBy(w.created_at, selection)) continue;
      if (!ws) await sink.write('### Working set\n\n| session | type | speaker | value | at | expires |\n| --- | --- | --- | --- | --- | --- |\n');
      ws = true;
      await sink.write(`| ${[w.session_id, w.item_type, w.speaker, w.value, w.created_at, w.expires_at].map((c) => mdText(c, 300)).join(' | ')} |\n`);
    }
    if (ws) await sink.write('\n');

    const states = (
      db.prepare('SELECT session_id, state, updated_at FROM agent_states WHERE partition_id = ? ORDER BY session_id').all(p.id) as Array<{
        session_id: string;
        state: string;
        updated_at: string;
      }>
    ).filter((s) => existedBy(s.updated_at, selection));
    if (states.length > 0) {
      const rows = states.map((s) => {
        const st = JSON.parse(s.state) as {
          expectations?: Array<{ status?: string }>;
          assumptions?: unknown[];
          tentative_hypotheses?: unknown[];
          items?: unknown[];
        };
        const by = (status: string): number => (st.expectations ?? []).filter((e) => (e.status ?? 'pending') === status).length;
        return [
          s.session_id,
          s.updated_at,
          `${by('pending')} pending, ${by('confirmed')} confirmed, ${by('failed')} failed`,
          st.assumptions?.length ?? 0,
          st.tentative_hypotheses?.length ?? 0,
          st.items?.length ?? 0,
        ];
      });
      await sink.write('### Agent state\n\n' + table(['session', 'updated', 'expectations', 'assumptions', 'hypotheses', 'items'], rows) + '\n');
    }
    const docs = db
      .prepare(
        'SELECT session_id, max(version) AS version, max(created_at) AS at, count(*) AS versions FROM context_documents WHERE partition_id = @p AND (@at IS NULL OR created_at <= @at) GROUP BY session_id ORDER BY session_id',
      )
      .all({ p: p.id, at: asOf }) as Array<{
      session_id: string;
      version: number;
      at: string;
      versions: number;
    }>;
    if (docs.length > 0)
      await sink.write(
        '### Context documents\n\n' +
          table(
            ['session', 'latest version', 'versions', 'updated'],
            docs.map((d) => [d.session_id, d.version, d.versions, d.at]),
          ) +
          '\n',
      );
  }
  ticker.finish();
  return ticker.done;
}

/** What a selected report holds, in words. */
function selectionText(selection: ExportSelection): string {
  const { asOf: _a, ...rest } = selection.filter;
  const filtered = Object.entries(rest).some(([k, v]) => v !== undefined && !(k === 'validity' && v === 'all'));
  const parts = [
    selection.asOf ? `the state as of ${mdText(selection.asOf)}` : '',
    filtered ? `only the facts of a filter (${selection.facts} fact${selection.facts === 1 ? '' : 's'})` : '',
  ].filter(Boolean);
  return `This report shows ${parts.join(', and ')}.`;
}
