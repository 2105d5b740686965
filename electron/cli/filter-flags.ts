// The fact-filter flags (--validity, --memory-type, --search, ...) the commands that select facts
// share: their parse options, their usage line and the FactFilter they describe.
import { Validity, type FactFilterInput } from '../../shared/query';
import { enumOpt, stringOpt, type ParsedCli } from './command';

export const FILTER_OPTIONS = {
  validity: { type: 'string' },
  'memory-type': { type: 'string', multiple: true },
  scope: { type: 'string', multiple: true },
  'needs-review': { type: 'boolean' },
  constraint: { type: 'boolean' },
  'source-type': { type: 'string', multiple: true },
  authority: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  search: { type: 'string' },
  key: { type: 'string' },
  'as-of': { type: 'string' },
} as const;

export const FILTER_USAGE = `Filter flags: --validity valid|superseded|proposal|all  --memory-type T (repeatable)  --scope S (repeatable)
  --needs-review  --constraint  --source-type T (repeatable)  --authority A (repeatable)
  --from ISO  --to ISO  --search WORDS  --key KEY  --as-of ISO`;

/** The FactFilter the filter flags describe, or undefined when none was given. */
export function filterFromArgs(args: ParsedCli): FactFilterInput | undefined {
  const v = args.values;
  const list = (name: string): string[] | undefined => {
    const x = v[name];
    return Array.isArray(x) && x.length > 0 ? (x as string[]) : undefined;
  };
  const filter: Record<string, unknown> = {};
  const validity = enumOpt(args, 'validity', Validity.options);
  if (validity !== undefined) filter.validity = validity;
  if (list('memory-type')) filter.memoryTypes = list('memory-type');
  if (list('scope')) filter.scopes = list('scope');
  if (v['needs-review'] === true) filter.needsReview = true;
  if (v.constraint === true) filter.isConstraint = true;
  if (list('source-type')) filter.sourceTypes = list('source-type');
  if (list('authority')) filter.authorities = list('authority');
  for (const [flag, field] of [
    ['from', 'from'],
    ['to', 'to'],
    ['search', 'search'],
    ['key', 'key'],
    ['as-of', 'asOf'],
  ] as const) {
    const s = stringOpt(args, flag);
    if (s !== undefined) filter[field] = s;
  }
  return Object.keys(filter).length > 0 ? (filter as FactFilterInput) : undefined;
}
