// How the inspector asks for facts: filters, sorting, keyset pages, deletion selections.
// Shared by the engine's query layer, deletion, exports and the IPC contract.
import { z } from 'zod';
import { MemoryType, Scope } from './domain';
import { Timestamp } from './timestamp';

export const MAX_PAGE_SIZE = 500;
export const MAX_SEARCH_CHARS = 500;
const bounded = z.string().max(500);

export const Validity = z.enum(['valid', 'superseded', 'proposal', 'all']);
export type Validity = z.infer<typeof Validity>;

export const FactFilter = z.strictObject({
  validity: Validity.default('all'),
  memoryTypes: z.array(MemoryType).max(3).optional(),
  scopes: z.array(Scope).max(5).optional(),
  needsReview: z.boolean().optional(),
  isConstraint: z.boolean().optional(),
  sourceTypes: z.array(bounded).max(50).optional(),
  authorities: z.array(bounded).max(50).optional(),
  /** Inclusive lower / exclusive upper bound on the fact's timestamp (ISO strings). */
  from: Timestamp.optional(),
  to: Timestamp.optional(),
  /** Full-text search over key and value (FTS5; plain words, no query syntax needed). A search
   * with no word to look for (only spaces or punctuation) is refused, never read as "no search". */
  search: z.string().max(MAX_SEARCH_CHARS, `a search is at most ${MAX_SEARCH_CHARS} characters`).optional(),
  key: bounded.optional(),
  /** Show the state as of this time: only facts valid then (time travel). */
  asOf: Timestamp.optional(),
});
export type FactFilter = z.infer<typeof FactFilter>;
export type FactFilterInput = z.input<typeof FactFilter>;

export const SORT_COLUMNS = [
  'ts',
  'key',
  'value',
  'importance',
  'accessCount',
  'lastAccessedAt',
  'createdAt',
  'memoryType',
  'scope',
  'authority',
  'sourceType',
  'status',
] as const;
export const SortColumn = z.enum(SORT_COLUMNS);
export type SortColumn = z.infer<typeof SortColumn>;

export const FactSort = z.strictObject({
  column: SortColumn.default('ts'),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type FactSort = z.infer<typeof FactSort>;

export const PageRequest = z.strictObject({
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).default(100),
  /** Opaque keyset cursor returned by the previous page. */
  after: z.string().max(2000).nullable().optional(),
});
export type PageRequest = z.infer<typeof PageRequest>;

/** What a delete acts on: explicit ids, every fact matching a filter, or (said explicitly)
 * every fact of the partition. A filter that restricts nothing is refused: "all" must be asked
 * for by name, never reached by a filter that happens to be empty. */
export const DeletionSelection = z.union([
  z.strictObject({ ids: z.array(z.string().min(1).max(200)).min(1).max(100_000) }),
  z.strictObject({ filter: FactFilter }),
  z.strictObject({ all: z.literal(true) }),
]);
export type DeletionSelection = z.infer<typeof DeletionSelection>;
export type DeletionSelectionInput = z.input<typeof DeletionSelection>;
