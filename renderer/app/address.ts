// The inspector's address: everything a reviewer would want a link to reopen (view, partition,
// open fact and tab, search and filters, sort, as-of time, the context query, strategies and budget,
// the graph's hops, the review queue's arrangement and selection, the table's hidden columns) read from and written to a path and search params (/memories/3/fact_x?tab=chain&q=…).
// Reading never throws: the parts that make sense are kept and each problem is said in words.
import { ASSEMBLY_STRATEGIES } from '../../shared/assembly';
import { MEMORY_TYPES, SCOPES } from '../../shared/domain';
import { MAX_HOPS } from '../../shared/inspect';
import { SORT_COLUMNS, type FactFilterInput, type FactSort, type Validity } from '../../shared/query';
import { canonicalTimestamp } from '../../shared/timestamp';
import {
  DEFAULT_FILTER,
  DEFAULT_HIDDEN,
  DEFAULT_SORT,
  DETAIL_TABS,
  TOGGLEABLE_COLUMNS,
  VIEWS,
  VIEW_LABELS,
  type AppState,
  type DetailTab,
  type View,
  type ViewParams,
} from './state';

/** The part of the app state an address holds. */
export type AddressState = Pick<AppState, 'view' | 'partitionId' | 'factId' | 'detailTab' | 'filter' | 'sort' | 'asOf' | 'params' | 'hiddenColumns'>;

/** What an address sets; a part it does not name keeps its default. */
export type Place = Partial<AddressState>;

export interface ParsedLink {
  readonly place: Place;
  /** What was wrong with the link, one sentence each; empty for a good link. */
  readonly problems: readonly string[];
}

/** The search params as the router types them: each a canonical text, absent when at its default. */
export interface AddressSearch {
  tab?: DetailTab;
  q?: string;
  key?: string;
  validity?: Validity;
  review?: 'yes' | 'no';
  constraint?: 'yes' | 'no';
  types?: string;
  scopes?: string;
  sources?: string;
  authorities?: string;
  from?: string;
  to?: string;
  sort?: string;
  asof?: string;
  query?: string;
  strategies?: string;
  budget?: string;
  hops?: string;
  queue?: 'flat';
  picked?: string;
  hide?: string;
}

const MAX_FACT_ID = 200;
const MAX_TEXT = 500;
const MAX_BUDGET = 1_000_000;
const VALIDITIES: readonly Validity[] = ['valid', 'superseded', 'proposal', 'all'];
/** A selection this large is not worth a link (a whole queue is "Select all" away). */
const MAX_PICKED = 200;
/** The hidden-columns value that hides none. */
const NO_COLUMNS = 'none';

function decodePart(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function shown(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

function list(text: string): string[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A comma list whose every item is one of `allowed` (and at most `max` of them), or a problem. */
function choices<T extends string>(name: string, text: string, allowed: readonly T[], problems: string[]): T[] | undefined {
  const items = [...new Set(list(text))];
  const bad = items.filter((i) => !(allowed as readonly string[]).includes(i));
  if (bad.length > 0 || items.length === 0) {
    problems.push(`The link's ${name} "${shown(text)}" is not understood (choose from ${allowed.join(', ')}).`);
    return undefined;
  }
  return items as T[];
}

function time(name: string, text: string, problems: string[]): string | undefined {
  const t = canonicalTimestamp(text);
  if (t === undefined) problems.push(`The link's ${name} "${shown(text)}" is not a date and time (like 2025-03-01T14:30Z).`);
  return t;
}

function yesNo(name: string, text: string, problems: string[]): boolean | undefined {
  if (text === 'yes' || text === 'no') return text === 'yes';
  problems.push(`The link's ${name} "${shown(text)}" should be yes or no.`);
  return undefined;
}

function boundedText(name: string, text: string, problems: string[]): string | undefined {
  if (text.length <= MAX_TEXT) return text || undefined;
  problems.push(`The link's ${name} is longer than ${MAX_TEXT} characters.`);
  return undefined;
}

function readSort(text: string, problems: string[]): FactSort | undefined {
  const direction = text.startsWith('-') ? 'desc' : 'asc';
  const column = text.replace(/^[-+]/, '');
  if ((SORT_COLUMNS as readonly string[]).includes(column)) return { column: column as FactSort['column'], direction };
  problems.push(`The link sorts by "${shown(text)}", which is not a column.`);
  return undefined;
}

function whole(name: string, text: string, max: number, problems: string[]): string | undefined {
  const n = Number(text);
  if (/^\d+$/.test(text) && n >= 1 && n <= max) return String(n);
  problems.push(`The link's ${name} "${shown(text)}" should be a whole number from 1 to ${max}.`);
  return undefined;
}

/** Reads search params (already split into names and texts) into the state they name. */
export function readSearch(raw: Readonly<Record<string, unknown>>): { place: Place; problems: string[] } {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const v = raw[name];
    if (v === undefined || v === null) return undefined;
    return typeof v === 'string' ? v : Array.isArray(v) ? v.map(String).join(',') : String(v);
  };
  const place: { -readonly [K in keyof AddressState]?: AddressState[K] } = {};
  const tab = text('tab');
  if (tab !== undefined) {
    if ((DETAIL_TABS as readonly string[]).includes(tab)) place.detailTab = tab as DetailTab;
    else problems.push(`The link names a tab "${shown(tab)}" that does not exist (tabs: ${DETAIL_TABS.join(', ')}).`);
  }
  const filter: { -readonly [K in keyof FactFilterInput]: FactFilterInput[K] } = { ...DEFAULT_FILTER };
  let filtered = false;
  const put = <K extends keyof FactFilterInput>(k: K, v: FactFilterInput[K] | undefined) => {
    if (v === undefined) return;
    filter[k] = v;
    filtered = true;
  };
  const read = <T>(name: string, parse: (t: string) => T | undefined): T | undefined => {
    const t = text(name);
    return t === undefined ? undefined : parse(t);
  };
  put(
    'search',
    read('q', (t) => boundedText('search', t, problems)),
  );
  put(
    'key',
    read('key', (t) => boundedText('key', t, problems)),
  );
  put(
    'validity',
    read('validity', (t) =>
      (VALIDITIES as readonly string[]).includes(t)
        ? (t as Validity)
        : (problems.push(`The link's validity "${shown(t)}" is not one of ${VALIDITIES.join(', ')}.`), undefined),
    ),
  );
  put(
    'needsReview',
    read('review', (t) => yesNo('review flag', t, problems)),
  );
  put(
    'isConstraint',
    read('constraint', (t) => yesNo('constraint flag', t, problems)),
  );
  put(
    'memoryTypes',
    read('types', (t) => choices('memory types', t, MEMORY_TYPES, problems)),
  );
  put(
    'scopes',
    read('scopes', (t) => choices('scopes', t, SCOPES, problems)),
  );
  put(
    'sourceTypes',
    read('sources', (t) => (list(t).length > 0 ? list(t).slice(0, 50) : undefined)),
  );
  put(
    'authorities',
    read('authorities', (t) => (list(t).length > 0 ? list(t).slice(0, 50) : undefined)),
  );
  put(
    'from',
    read('from', (t) => time('start date', t, problems)),
  );
  put(
    'to',
    read('to', (t) => time('end date', t, problems)),
  );
  if (filtered) place.filter = filter;
  const sort = read('sort', (t) => readSort(t, problems));
  if (sort) place.sort = sort;
  const asOf = read('asof', (t) => time('as-of time', t, problems));
  if (asOf) place.asOf = asOf;
  const params: { -readonly [K in keyof ViewParams]: ViewParams[K] } = {};
  const query = read('query', (t) => boundedText('context query', t, problems));
  if (query !== undefined) params.query = query;
  const strategies = read('strategies', (t) => choices('strategies', t, ASSEMBLY_STRATEGIES, problems));
  if (strategies) params.strategies = strategies;
  const budget = read('budget', (t) => whole('token budget', t, MAX_BUDGET, problems));
  if (budget) params.budget = budget;
  const hops = read('hops', (t) => whole('graph hops', t, MAX_HOPS, problems));
  if (hops) params.hops = hops;
  const queue = read('queue', (t) =>
    t === 'flat' || t === 'grouped' ? t : (problems.push(`The link's queue arrangement "${shown(t)}" should be flat or grouped.`), undefined),
  );
  if (queue) params.queue = queue;
  const picked = read('picked', (t) => readPicked(t, problems));
  if (picked) params.picked = picked;
  if (Object.keys(params).length > 0) place.params = params;
  const hide = read('hide', (t) => (t === NO_COLUMNS ? [] : choices('hidden columns', t, TOGGLEABLE_COLUMNS, problems)));
  if (hide) place.hiddenColumns = new Set(hide);
  return { place, problems };
}

function readPicked(text: string, problems: string[]): string[] | undefined {
  const ids = [...new Set(list(text))];
  if (ids.length > MAX_PICKED || ids.some((id) => id.length > MAX_FACT_ID)) {
    problems.push(`The link selects more than ${MAX_PICKED} facts or names a fact id longer than ${MAX_FACT_ID} characters; the selection is left empty.`);
    return undefined;
  }
  return ids.length > 0 ? ids : undefined;
}

/** Reads a path (/view/partition/fact…) and its search params. */
export function readAddress(pathname: string, search: Readonly<Record<string, unknown>>): ParsedLink {
  const fromSearch = readSearch(search);
  const place = { ...fromSearch.place } as { -readonly [K in keyof AddressState]?: AddressState[K] };
  const problems = [...fromSearch.problems];
  const body = pathname.replace(/^\/+/, '');
  if (body === '') return { place, problems };
  const decoded = body.split('/').map((raw) => ({ raw, text: decodePart(raw) }));
  const broken = decoded.find((d) => d.text === undefined);
  if (broken) problems.push(`The link is damaged: "${shown(broken.raw)}" is not valid percent-encoding.`);
  const [view, pid] = decoded.map((d) => d.text);
  if (view) {
    if ((VIEWS as readonly string[]).includes(view)) place.view = view as View;
    else problems.push(`The link names a view "${shown(view)}" that does not exist (views: ${VIEWS.map((v) => VIEW_LABELS[v]).join(', ')}).`);
  }
  if (pid) {
    const n = Number(pid);
    if (Number.isInteger(n) && n > 0) place.partitionId = n;
    else problems.push(`The link names a partition "${shown(pid)}"; partitions are numbered 1, 2, 3…`);
  }
  // A fact id may itself contain "/": the rest of the path is the fact.
  const factParts = decoded.slice(2);
  if (factParts.length > 0 && factParts.every((d) => d.text !== undefined)) {
    const fact = factParts.map((d) => d.text).join('/');
    if (fact.length > MAX_FACT_ID) problems.push(`The link's fact id is longer than ${MAX_FACT_ID} characters.`);
    else if (fact !== '') place.factId = fact;
  }
  return { place, problems };
}

/** Splits a search string (?a=1&b=2) into names and texts; the first of a repeated name wins. */
export function parseSearchText(searchStr: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(searchStr)) if (!(k in out)) out[k] = v;
  return out;
}

/** The search string of typed search params, in a fixed order; empty values are left out. */
export function stringifySearch(search: Readonly<Record<string, unknown>>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString().replace(/%2C/g, ',');
  return s ? `?${s}` : '';
}

function sameList(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The search params of a state; what is at its default is left out so plain links stay short. */
export function searchOf(s: AddressState): AddressSearch {
  const out: AddressSearch = {};
  const f = s.filter;
  if (s.factId && s.detailTab !== 'detail') out.tab = s.detailTab;
  if (f.search) out.q = f.search;
  if (f.key) out.key = f.key;
  if (f.validity && f.validity !== 'all') out.validity = f.validity;
  if (f.needsReview !== undefined) out.review = f.needsReview ? 'yes' : 'no';
  if (f.isConstraint !== undefined) out.constraint = f.isConstraint ? 'yes' : 'no';
  if (f.memoryTypes?.length) out.types = f.memoryTypes.join(',');
  if (f.scopes?.length) out.scopes = f.scopes.join(',');
  if (f.sourceTypes?.length) out.sources = f.sourceTypes.join(',');
  if (f.authorities?.length) out.authorities = f.authorities.join(',');
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  if (s.sort.column !== DEFAULT_SORT.column || s.sort.direction !== DEFAULT_SORT.direction)
    out.sort = `${s.sort.direction === 'desc' ? '-' : ''}${s.sort.column}`;
  if (s.asOf) out.asof = s.asOf;
  const p = s.params;
  if (p.query) out.query = p.query;
  if (p.strategies && !sameList(p.strategies, [])) out.strategies = p.strategies.join(',');
  if (p.budget) out.budget = p.budget;
  if (p.hops) out.hops = p.hops;
  if (s.view === 'review') {
    if (p.queue === 'flat') out.queue = 'flat';
    if (p.picked?.length) out.picked = p.picked.slice(0, MAX_PICKED).join(',');
  }
  if (s.view === 'memories') {
    const hidden = TOGGLEABLE_COLUMNS.filter((c) => s.hiddenColumns.has(c));
    const defaults = TOGGLEABLE_COLUMNS.filter((c) => DEFAULT_HIDDEN.includes(c));
    if (!sameList(hidden, defaults)) out.hide = hidden.length === 0 ? NO_COLUMNS : hidden.join(',');
  }
  return out;
}

/** The path of a state: /view, /view/partition or /view/partition/fact. */
export function pathOf(s: Pick<AddressState, 'view' | 'partitionId' | 'factId'>): string {
  if (s.partitionId === null) return `/${s.view}`;
  return `/${s.view}/${s.partitionId}${s.factId ? `/${encodeURIComponent(s.factId)}` : ''}`;
}

/** The whole address of a state, as it appears after the "#". */
export function formatAddress(s: AddressState): string {
  return `${pathOf(s)}${stringifySearch({ ...searchOf(s) })}`;
}

/** Reads an address as it appears after the "#" (old links such as #/memories/3/f?tab=chain included). */
export function parseAddress(address: string): ParsedLink {
  const [path = '', search = ''] = address.replace(/^#/, '').split('?', 2);
  return readAddress(path, parseSearchText(search));
}

/** What is typed or dragged (the search, the context query and budget, the time-travel instant):
 * a burst of such edits is one Back step, not one per keystroke or scrubber move. */
const TYPED = ['q', 'query', 'budget', 'asof'];

/** Whether two addresses differ only in what is typed or dragged. */
export function differsOnlyInTyping(a: string, b: string): boolean {
  const strip = (address: string) => {
    const [path = '', search = ''] = address.split('?', 2);
    const p = new URLSearchParams(search);
    for (const name of TYPED) p.delete(name);
    return `${path}?${p.toString()}`;
  };
  return a !== b && strip(a) === strip(b);
}

/** Whether moving from one address to the next deserves its own Back step: a first landing
 * (no partition chosen yet) is completed in place, every later move is a new entry. */
export function isNewHistoryEntry(previous: string, next: string): boolean {
  if (previous === next) return false;
  return parseAddress(previous).place.partitionId !== undefined;
}
