// A FactFilter as SQL: WHERE fragments chosen by code (never built from user text), one per
// filter so a page plan can drive from any of them, the values bound to them, and each in words.
// The one translation of the filter language: the memories table, counts, CSV exports and
// delete-by-filter all select through it, so a delete removes exactly what the table lists.
import { StatelensError } from '../../../shared/errors';
import type { FactFilter } from '../../../shared/query';
import { sqliteDialect, type Dialect } from '../db/dialect';
import { searchWords, toFtsQuery } from './fts';

export type FilterName =
  'partition' | 'validity' | 'memoryTypes' | 'scopes' | 'needsReview' | 'isConstraint' | 'sourceTypes' | 'authorities' | 'range' | 'key' | 'asOf' | 'search';

export interface FilterPart {
  readonly name: FilterName;
  readonly sql: string;
  /** The condition as a person reads it (echoed before a delete); empty for the partition. */
  readonly text: string;
}

export interface FilterSql {
  readonly parts: readonly FilterPart[];
  readonly params: Record<string, string | number>;
  /** The FTS5 query the search became, or null when there is no (searchable) search (the
   * store's own form of it is bound as `@fts`). */
  readonly fts: string | null;
  /** The FTS5 query ends in a prefix term (costly to test row by row). */
  readonly ftsPrefix: boolean;
}

/** A search is tested as membership in the match list (built once per statement). */
export const searchIn = (dialect: Dialect): string => `f.rid IN (${dialect.ftsRids('@fts')})`;
export const SEARCH_IN = searchIn(sqliteDialect);

function checkTime(name: string, value: string | undefined): void {
  if (value !== undefined && Number.isNaN(Date.parse(value))) {
    throw new StatelensError('INVALID_INPUT', `Filter ${name} is not a date or time: "${value.slice(0, 64)}"`);
  }
}

/** Empty lists mean "no restriction" (no chip selected), like an absent one. */
function nonEmpty<T>(list: readonly T[] | undefined): list is readonly T[] {
  return list !== undefined && list.length > 0;
}

/** A value quoted for a condition's text, cut short so one condition stays one line. */
function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}
const listed = (values: readonly string[]): string => values.map((v) => (v === '' ? '(none recorded)' : shown(v))).join(', ');

export function filterSql(partitionId: number, filter: FactFilter, dialect: Dialect = sqliteDialect): FilterSql {
  checkTime('from', filter.from);
  checkTime('to', filter.to);
  checkTime('asOf', filter.asOf);
  const parts: FilterPart[] = [{ name: 'partition', sql: 'f.partition_id = @partition_id AND f.archived_at IS NULL', text: '' }];
  const params: Record<string, string | number> = { partition_id: partitionId };
  const add = (name: FilterName, sql: string, text: string) => parts.push({ name, sql, text });
  if (filter.validity === 'valid') add('validity', 'f.is_valid = 1', 'validity: valid now');
  else if (filter.validity === 'superseded') add('validity', "f.status = 'superseded'", 'validity: superseded');
  else if (filter.validity === 'proposal') add('validity', "f.status = 'proposal'", 'validity: proposals');
  if (nonEmpty(filter.memoryTypes)) {
    add('memoryTypes', 'f.memory_type IN (SELECT value FROM json_each(@memory_types))', `memory type: ${filter.memoryTypes.join(', ')}`);
    params.memory_types = JSON.stringify(filter.memoryTypes);
  }
  if (nonEmpty(filter.scopes)) {
    add('scopes', 'f.scope IN (SELECT value FROM json_each(@scopes))', `scope: ${filter.scopes.join(', ')}`);
    params.scopes = JSON.stringify(filter.scopes);
  }
  // Literals, not parameters: the partial needs_review index is usable only for `= 1`.
  if (filter.needsReview !== undefined)
    add('needsReview', filter.needsReview ? 'f.needs_review = 1' : 'f.needs_review = 0', `needs review: ${filter.needsReview ? 'yes' : 'no'}`);
  if (filter.isConstraint !== undefined)
    add('isConstraint', filter.isConstraint ? 'f.is_constraint = 1' : 'f.is_constraint = 0', `constraint: ${filter.isConstraint ? 'yes' : 'no'}`);
  if (nonEmpty(filter.sourceTypes)) {
    add('sourceTypes', 'f.source_type IN (SELECT value FROM json_each(@source_types))', `source type: ${listed(filter.sourceTypes)}`);
    params.source_types = JSON.stringify(filter.sourceTypes);
  }
  if (nonEmpty(filter.authorities)) {
    // '' stands for "no authority recorded"; the expression matches facts_sort_authority.
    add('authorities', "coalesce(f.source_authority, '') IN (SELECT value FROM json_each(@authorities))", `authority: ${listed(filter.authorities)}`);
    params.authorities = JSON.stringify(filter.authorities);
  }
  const range: string[] = [];
  const rangeText: string[] = [];
  if (filter.from !== undefined) {
    range.push('f.ts >= @from');
    rangeText.push(`from ${filter.from}`);
    params.from = filter.from;
  }
  if (filter.to !== undefined) {
    range.push('f.ts < @to');
    rangeText.push(`before ${filter.to}`);
    params.to = filter.to;
  }
  if (range.length > 0) add('range', range.join(' AND '), `time: ${rangeText.join(' and ')}`);
  if (filter.key !== undefined) {
    add('key', 'f.key = @key', `key: ${shown(filter.key)}`);
    params.key = filter.key;
  }
  if (filter.asOf !== undefined) {
    add('asOf', "f.status <> 'proposal' AND f.ts <= @as_of AND (f.valid_to IS NULL OR f.valid_to > @as_of)", `valid as of ${filter.asOf}`);
    params.as_of = filter.asOf;
  }
  // A search always restricts: one with no word to look for is refused by toFtsQuery.
  const fts = filter.search === undefined ? null : toFtsQuery(filter.search);
  if (fts !== null && filter.search !== undefined) {
    const words = searchWords(filter.search);
    const last = words[words.length - 1] ?? '';
    const prefix = fts.endsWith('*') ? ` (${shown(last)} also as the start of a word)` : '';
    add('search', searchIn(dialect), `search: every word of ${words.map(shown).join(' ')}${prefix}`);
    params.fts = dialect.ftsQuery(fts);
  }
  return { parts, params, fts, ftsPrefix: fts !== null && fts.endsWith('*') };
}

/** Whether the filter restricts anything beyond the partition: one that does not selects every
 * fact of it (a delete must then say "all" explicitly). */
export function restricts(sql: FilterSql): boolean {
  return sql.parts.some((p) => p.name !== 'partition');
}

/** The conditions a filter applies, as a person reads them. */
export function conditionsOf(sql: FilterSql): string[] {
  return sql.parts.filter((p) => p.name !== 'partition').map((p) => p.text);
}

/** The WHERE fragments, optionally without one filter's. */
export function whereOf(sql: FilterSql, without?: FilterName): string[] {
  return sql.parts.filter((p) => p.name !== without).map((p) => p.sql);
}
