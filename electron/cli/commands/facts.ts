// `statelens facts`: lists facts of one partition or all, optionally full-text searched and
// valid-only, as a plain table or as JSON lines (one fact per line). Opens the file read-only.
import type { FactRowView } from '../../../shared/inspect';
import { StatelensError } from '../../../shared/errors';
import { parseDesignation } from '../../engine/ingest/designation';
import type { PartitionHandle } from '../../engine/partition-handle';
import { EXIT, intOpt, stringOpt, type CliCommand } from '../command';
import { PG_OPTIONS, PG_USAGE, openDb } from '../database';

const PAGE = 500;
const MAX_LIMIT = 1_000_000;

function clip(text: string, width: number): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function flags(r: FactRowView): string {
  return [r.needsReview ? 'review' : '', r.isConstraint ? (r.constraintType ?? 'constraint') : '', r.scope !== 'global' ? r.scope : '', r.level ?? '']
    .filter(Boolean)
    .join(',');
}

function* rowsOf(handle: PartitionHandle, filter: { search?: string; validity: 'valid' | 'all' }, limit: number): Generator<FactRowView> {
  let after: string | null = null;
  let left = limit;
  while (left > 0) {
    const page = handle.listFacts({ filter, sort: { column: 'ts', direction: 'desc' }, page: { limit: Math.min(PAGE, left), after } });
    for (const r of page.rows) {
      yield r;
      if (--left === 0) return;
    }
    if (!page.nextCursor) return;
    after = page.nextCursor;
  }
}

export const factsCommand: CliCommand = {
  name: 'facts',
  summary: 'List facts (newest first), optionally searched, valid-only or in one partition',
  usage: `statelens facts --db FILE [--search TEXT] [--partition ID] [--valid] [--limit N] [--json]

--partition takes a numeric partition id or user:ORG/USER, capability:ORG/NAME, org:ORG.
--search is full text over key and value (plain words). --valid shows only valid facts.
--limit caps the number of facts listed (default 50). --json prints one JSON fact per line,
with its partition, dependencies and full value. The database is opened read-only; --db
may also name a JSON or NDJSON snapshot.

Exit codes: 0 listed (also when nothing matched), 1 failed, 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    search: { type: 'string' },
    partition: { type: 'string' },
    valid: { type: 'boolean' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const limit = intOpt(args, 'limit', 50);
    if (limit < 1 || limit > MAX_LIMIT) throw new StatelensError('INVALID_INPUT', `--limit must be from 1 to ${MAX_LIMIT.toLocaleString('en-US')}`);
    const search = stringOpt(args, 'search');
    // `--search ''` is a search too: refused (no word in it) rather than silently listing everything.
    const filter = { validity: args.values.valid ? ('valid' as const) : ('all' as const), ...(search !== undefined ? { search } : {}) };
    const store = openDb(args, { readonly: true });
    try {
      const partitionArg = stringOpt(args, 'partition');
      const partitions = partitionArg
        ? [/^\d+$/.test(partitionArg) ? store.scopeById(Number(partitionArg)) : store.scope(parseDesignation(partitionArg))]
        : store.listPartitions().map((p) => store.scopeById(p.id));
      let left = limit;
      let shown = 0;
      // The header goes out with the first row (or after an empty listing), so a search the
      // engine refuses on its first page prints only its error.
      let headed = Boolean(args.values.json);
      const header = (): void => {
        if (!headed) io.out(['PARTITION', 'ID', 'STATUS', 'TS', 'KEY', 'VALUE', 'FLAGS'].join('\t'));
        headed = true;
      };
      for (const handle of partitions) {
        if (left === 0) break;
        const label = `${handle.ref.kind === 'user' ? `user:${handle.ref.org}/${handle.ref.user}` : handle.ref.kind === 'capability' ? `capability:${handle.ref.org}/${handle.ref.capability}` : `org:${handle.ref.org}`}`;
        for (const r of rowsOf(handle, filter, left)) {
          left--;
          shown++;
          if (args.values.json) {
            const fact = handle.getFact(r.id);
            io.out(JSON.stringify({ partitionId: handle.id, partition: label, ...fact }));
          } else {
            header();
            io.out([label, r.id, r.status, r.ts, clip(r.key, 48), clip(r.value, 72), flags(r)].join('\t'));
          }
        }
      }
      header();
      if (!args.values.json) io.err(`${shown} fact${shown === 1 ? '' : 's'}${shown === limit ? ` (limit ${limit}; use --limit for more)` : ''}`);
      return EXIT.ok;
    } finally {
      store.close();
    }
  },
};
