// Compiles an engine statement written in SQLite's SQL into PostgreSQL, token by token (string
// literals, quoted names and comments are never touched). What it translates is listed in
// TRANSLATIONS; anything SQLite-only it cannot translate yet is refused with NOT_SUPPORTED and
// the construct's name, never sent to the server to fail there.
import { PG_ORG_SETTING } from './session-settings';
import { StatelensError } from '../../../../shared/errors';
import { REFERENCE_TABLES, type Bind, type CompiledSql, type Dialect } from '../dialect';
import { tsqueryOf } from './search-query';

/** What the compiler rewrites, for readers and for the report of a refused statement. */
export const TRANSLATIONS = [
  '? / ?NNN / @name / :name / $name placeholders -> $1, $2… (a name used twice binds once; an occurrence only tested for NULL binds apart, as text)',
  'a IS b / a IS NOT b -> IS NOT DISTINCT FROM / IS DISTINCT FROM',
  'unary + and INDEXED BY / NOT INDEXED (SQLite index hints) -> dropped',
  'json_each(x) -> json_array_elements_text((x)::json) (its column is still `value`; a named one gets `key`, the position from 1)',
  'INSERT OR IGNORE -> INSERT … ON CONFLICT DO NOTHING',
  'ON CONFLICT (cols) on an org-scoped table -> ON CONFLICT (org_id, cols)',
  'LIKE -> ILIKE (SQLite LIKE ignores case)',
  'ORDER BY x [ASC] -> NULLS FIRST, x DESC -> NULLS LAST (SQLite puts NULL lowest)',
  'an unnamed subquery in FROM gets a name (PostgreSQL before 16 requires one)',
  'LIMIT ? with a negative value -> no limit; CROSS JOIN … ON -> JOIN … ON',
  'WITHOUT ROWID (a SQLite table option) -> dropped',
  'temp.name -> pg_temp.name; ifnull -> coalesce; instr -> strpos; group_concat -> string_agg; max/min(a, b) -> greatest/least',
  'julianday(x) -> epoch days of x::timestamptz + 2440587.5 (a date-time PostgreSQL cannot read is an error, not NULL)',
] as const;

const UNSUPPORTED: Record<string, string> = {
  match: 'full-text MATCH (FTS5)',
  pragma: 'PRAGMA',
  printf: 'printf()',
  strftime: 'strftime()',
  unixepoch: 'unixepoch()',
  glob: 'GLOB',
  rowid: 'rowid',
};

type Kind = 'ws' | 'comment' | 'str' | 'qid' | 'param' | 'num' | 'word' | 'op' | '(' | ')' | ',';
interface Tok {
  kind: Kind;
  text: string;
}

const SCANNER: Array<[Kind, RegExp]> = [
  ['ws', /\s+/y],
  ['comment', /--[^\n]*|\/\*[\s\S]*?\*\//y],
  ['str', /'(?:[^']|'')*'/y],
  ['qid', /"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]/y],
  ['param', /\?\d*|[@:$][A-Za-z_][A-Za-z0-9_]*/y],
  ['num', /\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y],
  ['word', /[A-Za-z_][A-Za-z0-9_]*/y],
  ['(', /\(/y],
  [')', /\)/y],
  [',', /,/y],
  ['op', /<>|!=|<=|>=|\|\||==|<<|>>|@@|[-+*/%<>=.;&|~]/y],
];

export function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let at = 0;
  outer: while (at < sql.length) {
    for (const [kind, re] of SCANNER) {
      re.lastIndex = at;
      const m = re.exec(sql);
      if (m) {
        out.push({ kind, text: m[0] });
        at += m[0].length;
        continue outer;
      }
    }
    throw new StatelensError('INVALID_INPUT', `Cannot read SQL at "${sql.slice(at, at + 20)}"`);
  }
  return out;
}

const lower = (t: Tok | undefined): string => (t && t.kind === 'word' ? t.text.toLowerCase() : '');
const significant = (t: Tok): boolean => t.kind !== 'ws' && t.kind !== 'comment';

/** Index of the next (or previous) significant token from i, or -1. */
function next(toks: Tok[], i: number): number {
  for (let j = i + 1; j < toks.length; j++) if (significant(toks[j] as Tok)) return j;
  return -1;
}
function prev(toks: Tok[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (significant(toks[j] as Tok)) return j;
  return -1;
}
/** Index of the ')' matching the '(' at i. */
function closing(toks: Tok[], i: number): number {
  let depth = 0;
  for (let j = i; j < toks.length; j++) {
    const k = toks[j]?.kind;
    if (k === '(') depth++;
    else if (k === ')' && --depth === 0) return j;
  }
  throw new StatelensError('INVALID_INPUT', 'Unbalanced parentheses in SQL');
}

const UNARY_CONTEXT = new Set(['and', 'or', 'not', 'where', 'on', 'by', 'select', 'when', 'then', 'else', 'having', 'in', 'is']);
const IS_OPERANDS = new Set(['null', 'distinct', 'true', 'false']);
const ORDER_END = new Set(['limit', 'offset', 'union', 'except', 'intersect', 'window', 'for']);
/** Words that can follow a FROM item and are not its alias. */
const CLAUSE_WORDS = new Set([
  'where',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'on',
  'using',
  'group',
  'order',
  'limit',
  'offset',
  'union',
  'except',
  'intersect',
  'having',
  'window',
  'returning',
]);
const RENAMED: Record<string, string> = { ifnull: 'coalesce', instr: 'strpos' };

function refuse(construct: string, sql: string): never {
  throw new StatelensError('NOT_SUPPORTED', `PostgreSQL does not run ${construct} yet (in: ${sql.replace(/\s+/g, ' ').trim().slice(0, 160)})`, {
    construct,
  });
}

/** Compiles one statement; `orgScoped` says which tables lead their unique keys with org_id. */
export function compileForPostgres(sql: string, orgScoped: (table: string) => boolean): CompiledSql {
  const toks = tokenize(sql);
  const binds: Bind[] = [];
  const byName = new Map<string, number>();
  let nextIndex = 1;
  let insertTable: string | undefined;
  let ignoreConflicts = false;
  let subqueries = 0;
  /** Tokens of LIMIT parameters, wrapped so that a negative value means no limit. */
  const limitParams = new Set<number>();

  for (let i = 0; i < toks.length; i++) {
    const t = toks[i] as Tok;
    const w = lower(t);
    if (t.kind === 'param') {
      let key: string;
      let bind: Bind;
      if (t.text.startsWith('?')) {
        const index = t.text.length > 1 ? Number(t.text.slice(1)) : nextIndex;
        nextIndex = Math.max(nextIndex, index + 1);
        key = `?${index}`;
        bind = { index };
      } else {
        key = t.text.slice(1);
        bind = { name: key };
      }
      // A parameter only tested for NULL gives PostgreSQL no type to infer: that occurrence
      // binds on its own, as text (only its nullness counts).
      const a = next(toks, i);
      const b = next(toks, a);
      const nullTest = lower(toks[a]) === 'is' && (lower(toks[b]) === 'null' || (lower(toks[b]) === 'not' && lower(toks[next(toks, b)]) === 'null'));
      if (nullTest) {
        binds.push(bind);
        t.text = `$${binds.length}::text`;
        continue;
      }
      let n = byName.get(key);
      if (n === undefined) {
        binds.push(bind);
        n = binds.length;
        byName.set(key, n);
      }
      t.text = limitParams.has(i) ? `$${n}, -1), -1)` : `$${n}`;
      continue;
    }
    if (t.kind === 'op' && t.text === '==') t.text = '=';
    if (t.kind === 'op' && t.text === '+') {
      const p = toks[prev(toks, i)];
      const n = toks[next(toks, i)];
      const unary = !p || p.kind === '(' || p.kind === ',' || (p.kind === 'op' && p.text !== '.') || UNARY_CONTEXT.has(lower(p));
      if (unary && n && (n.kind === 'word' || n.kind === 'qid')) t.text = '';
      continue;
    }
    if (t.kind === '(' && ['from', 'join'].includes(lower(toks[prev(toks, i)])) && ['select', 'with', 'values'].includes(lower(toks[next(toks, i)]))) {
      // PostgreSQL before 16 wants every subquery in FROM named.
      const close = closing(toks, i);
      const after = toks[next(toks, close)];
      const named = after !== undefined && (after.kind === 'qid' || (after.kind === 'word' && !CLAUSE_WORDS.has(lower(after))));
      if (!named) (toks[close] as Tok).text = `) AS sl_sub${++subqueries}`;
      continue;
    }
    if (t.kind !== 'word') continue;
    if (w === 'without' && lower(toks[next(toks, i)]) === 'rowid') {
      // A SQLite table stored by its primary key; a PostgreSQL table has no rowid to leave out.
      t.text = '';
      (toks[next(toks, i)] as Tok).text = '';
      continue;
    }
    if (w in UNSUPPORTED && !(w === 'rowid' && lower(toks[prev(toks, i)]) === 'as')) {
      // `pragma` and `match` are keywords; the functions only when called.
      const isCall = toks[next(toks, i)]?.kind === '(';
      if (w === 'match' || w === 'pragma' || w === 'glob' || w === 'rowid' || isCall) refuse(UNSUPPORTED[w] ?? w, sql);
    }
    if (w === 'insert') {
      const a = next(toks, i);
      if (lower(toks[a]) === 'or') {
        const b = next(toks, a);
        const how = lower(toks[b]);
        if (how !== 'ignore') refuse(`INSERT OR ${how.toUpperCase()}`, sql);
        for (let j = i + 1; j <= b; j++) (toks[j] as Tok).text = '';
        ignoreConflicts = true;
      }
      const into = next(toks, ignoreConflicts ? next(toks, a) : i);
      const name = next(toks, into);
      if (lower(toks[into]) === 'into' && toks[name]) insertTable = (toks[name] as Tok).text.replace(/^temp\./i, '').toLowerCase();
      continue;
    }
    if (w === 'indexed' && lower(toks[next(toks, i)]) === 'by') {
      // SQLite's index hint: PostgreSQL's planner chooses for itself.
      const by = next(toks, i);
      const name = next(toks, by);
      for (let j = i; j <= name; j++) (toks[j] as Tok).text = '';
      continue;
    }
    if (w === 'not' && lower(toks[next(toks, i)]) === 'indexed') {
      t.text = '';
      (toks[next(toks, i)] as Tok).text = '';
      continue;
    }
    if (w === 'temp' && toks[i + 1]?.text === '.') {
      t.text = 'pg_temp';
      continue;
    }
    if (w === 'is') {
      const a = next(toks, i);
      if (lower(toks[a]) === 'not') {
        const b = next(toks, a);
        if (!IS_OPERANDS.has(lower(toks[b]))) {
          t.text = 'IS DISTINCT FROM';
          (toks[a] as Tok).text = '';
        }
      } else if (!IS_OPERANDS.has(lower(toks[a]))) t.text = 'IS NOT DISTINCT FROM';
      continue;
    }
    if (w === 'limit') {
      // SQLite reads a negative LIMIT as "no limit"; PostgreSQL refuses it (NULL means none).
      const a = next(toks, i);
      const after = toks[next(toks, a)];
      if (toks[a]?.kind === 'param' && (!after || after.kind === ')' || ['offset', 'for'].includes(lower(after)) || after.text === ';')) {
        t.text = `${t.text} NULLIF(GREATEST(`;
        for (let j = i + 1; j < a; j++) (toks[j] as Tok).text = '';
        limitParams.add(a);
      }
      continue;
    }
    if (w === 'cross' && lower(toks[next(toks, i)]) === 'join' && joinHasOn(toks, next(toks, i))) {
      // SQLite allows CROSS JOIN … ON (an inner join that keeps the join order); PostgreSQL does not.
      t.text = '';
      continue;
    }
    if (w === 'like') {
      t.text = 'ILIKE';
      continue;
    }
    if (w === 'conflict' && lower(toks[prev(toks, i)]) === 'on') {
      const open = next(toks, i);
      if (toks[open]?.kind === '(' && insertTable && orgScoped(insertTable)) {
        const cols = toks.slice(open + 1, closing(toks, open)).map(lower);
        if (!cols.includes('org_id')) (toks[open] as Tok).text = '(org_id, ';
      }
      continue;
    }
    const open = next(toks, i);
    if (toks[open]?.kind !== '(' || open !== i + 1) {
      if (w === 'order' && lower(toks[next(toks, i)]) === 'by') orderNulls(toks, next(toks, i));
      continue;
    }
    // Function calls.
    const close = closing(toks, open);
    if (w === 'json_each') {
      t.text = 'json_array_elements_text';
      (toks[open] as Tok).text = '((';
      (toks[close] as Tok).text = ')::json)';
      // A named json_each also has SQLite's `key` (the element's position, here counted from 1:
      // the engine only orders by it).
      let alias = next(toks, close);
      if (lower(toks[alias]) === 'as') alias = next(toks, alias);
      const name = toks[alias];
      if (name && (name.kind === 'word' || name.kind === 'qid') && !CLAUSE_WORDS.has(lower(name))) name.text = `WITH ORDINALITY AS ${name.text}(value, key)`;
      if (name && lower(toks[next(toks, close)]) === 'as' && name.text.startsWith('WITH')) (toks[next(toks, close)] as Tok).text = '';
    } else if (w in RENAMED) t.text = RENAMED[w] as string;
    else if (w === 'group_concat') {
      t.text = 'string_agg';
      if (topLevelCommas(toks, open, close) === 0) (toks[close] as Tok).text = `::text, ',')`;
    } else if ((w === 'max' || w === 'min') && topLevelCommas(toks, open, close) > 0) t.text = w === 'max' ? 'greatest' : 'least';
    else if (w === 'julianday') {
      // Julian day number 2440587.5 is the Unix epoch; float8, as SQLite's real.
      // The argument is read as text first, so a parameter in it is bound as text (as compared with ts).
      t.text = '(CAST(EXTRACT(EPOCH FROM CAST(CAST';
      (toks[close] as Tok).text = ' AS text) AS timestamptz)) AS double precision) / 86400.0 + 2440587.5)';
    }
  }
  let text = toks.map((t) => t.text).join('');
  if (ignoreConflicts) text = `${text.replace(/[\s;]+$/, '')} ON CONFLICT DO NOTHING`;
  return { text, binds };
}

/** True when the JOIN at `join` has an ON before the next join or clause at its depth. */
function joinHasOn(toks: Tok[], join: number): boolean {
  let depth = 0;
  for (let j = join + 1; j < toks.length; j++) {
    const t = toks[j] as Tok;
    if (t.kind === '(') depth++;
    else if (t.kind === ')') {
      if (depth === 0) return false;
      depth--;
    } else if (depth === 0) {
      const w = lower(t);
      if (w === 'on') return true;
      if (w === 'join' || CLAUSE_WORDS.has(w)) return false;
    }
  }
  return false;
}

function topLevelCommas(toks: Tok[], open: number, close: number): number {
  let depth = 0;
  let n = 0;
  for (let j = open + 1; j < close; j++) {
    const k = toks[j]?.kind;
    if (k === '(') depth++;
    else if (k === ')') depth--;
    else if (k === ',' && depth === 0) n++;
  }
  return n;
}

/** Adds NULLS FIRST / NULLS LAST to each item of the ORDER BY whose BY is at `by`. */
function orderNulls(toks: Tok[], by: number): void {
  let depth = 0;
  let last = -1; // last significant token of the current item
  const finish = (): void => {
    if (last < 0) return;
    const words = lower(toks[last]);
    const before = lower(toks[prev(toks, last)]);
    if (before === 'nulls') return;
    (toks[last] as Tok).text += words === 'desc' ? ' NULLS LAST' : ' NULLS FIRST';
    last = -1;
  };
  for (let j = by + 1; j < toks.length; j++) {
    const t = toks[j] as Tok;
    if (!significant(t)) continue;
    if (t.kind === '(') depth++;
    else if (t.kind === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (t.kind === ',' || (t.kind === 'op' && t.text === ';') || ORDER_END.has(lower(t)))) {
      finish();
      if (t.kind !== ',') return;
      continue;
    }
    last = j;
  }
  finish();
}

/** The first key of every fact-write advisory lock ("SL"). */
export const NAME_LOCK_SPACE = 0x534c;
/** The first key of the store-wide write lock ("SW"), the second the hash of the schema and the
 * transaction's org: one org's bulk write never holds another org's writers (the name locks carry
 * the org in each name already). */
export const STORE_LOCK_SPACE = 0x5357;
const STORE_LOCK_KEY = `hashtext(current_schema() || '/' || coalesce(current_setting('${PG_ORG_SETTING}', true), ''))`;

export const postgresDialect: Dialect = {
  name: 'postgres',
  compile: (sql) => compileForPostgres(sql, (t) => !REFERENCE_TABLES.has(t)),
  changeCounterSql: 'SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS v',
  isOrgScoped: (t) => !REFERENCE_TABLES.has(t),
  // The document function and its GIN index come from PostgreSQL migration 2.
  ftsQuery: tsqueryOf,
  ftsFacts: (param) => ({ from: 'facts f', match: matchSql('f.', param), rid: 'f.rid' }),
  ftsRids: (param) => `SELECT rid FROM facts WHERE ${matchSql('', param)}`,
  ftsRank: (param) => `-ts_rank('{1, 0, 0, 0.5}', statelens_fts_doc(f.key, f.value), to_tsquery('statelens_search', ${param}), 2)`,
  ftsHighlight: false,
  // The two-key form keeps these locks apart from single-bigint ones (the migration lock); a hash
  // collision only makes two unrelated writers wait for each other. Rows come out of unnest in
  // array order, so the locks are taken in the order given.
  // Every writer first holds the store's lock shared (one lock table slot, taken once per
  // transaction), so a bulk write taking it exclusively waits for them and they for it.
  nameLockSql: `SELECT count(pg_advisory_xact_lock(${NAME_LOCK_SPACE}, hashtext(name)))::int AS n FROM (SELECT pg_advisory_xact_lock_shared(${STORE_LOCK_SPACE}, ${STORE_LOCK_KEY})) AS store, unnest($1::text[]) AS t(name)`,
  storeLockSql: `SELECT 1 AS n FROM (SELECT pg_advisory_xact_lock(${STORE_LOCK_SPACE}, ${STORE_LOCK_KEY})) AS store`,
};

function matchSql(alias: string, param: string): string {
  return `statelens_fts_doc(${alias}key, ${alias}value) @@ to_tsquery('statelens_search', ${param})`;
}
