// The engine's FTS5 queries as PostgreSQL tsqueries. The engine builds one subset of FTS5's
// syntax (quoted phrases, a `*` prefix after a phrase, OR, AND, parentheses); each phrase is cut
// by the shared splitter and its tokens normalised by the store's text search configuration, so
// a query matches the same facts as on SQLite.
import { StatelensError } from '../../../../shared/errors';
import { searchTokens } from '../search-tokens';

/** Matches nothing: what FTS5 does with a phrase holding no token. */
const NOTHING = "('statelens' & !'statelens')";

const literal = (token: string): string => `'${token.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;

/** One phrase: its tokens in a row, within the key (weight A) or within the value (weight D). */
function phrase(text: string, prefix: boolean): string {
  const tokens = searchTokens(text);
  if (tokens.length === 0) return NOTHING;
  const term = (t: string, i: number, weight: string): string => `${literal(t)}${prefix && i === tokens.length - 1 ? ':*' : weight ? ':' : ''}${weight}`;
  if (tokens.length === 1) return term(tokens[0] as string, 0, '');
  const within = (weight: string): string => tokens.map((t, i) => term(t, i, weight)).join(' <-> ');
  return `((${within('A')}) | (${within('D')}))`;
}

function unsupported(fts5: string, at: number): never {
  throw new StatelensError('NOT_SUPPORTED', `PostgreSQL does not run this full-text query syntax yet: ${JSON.stringify(fts5.slice(at, at + 40))}`, {
    construct: 'FTS5 query syntax',
  });
}

/** The tsquery text (for to_tsquery with the store's configuration) of an engine FTS5 query. */
export function tsqueryOf(fts5: string): string {
  const out: string[] = [];
  let operand = false; // the previous item ends an operand: the next one is ANDed to it
  let at = 0;
  while (at < fts5.length) {
    const c = fts5[at] as string;
    if (/\s/u.test(c)) {
      at++;
    } else if (c === '"') {
      let end = at + 1;
      let text = '';
      for (;;) {
        const q = fts5.indexOf('"', end);
        if (q < 0) unsupported(fts5, at);
        text += fts5.slice(end, q);
        if (fts5[q + 1] === '"') {
          text += '"';
          end = q + 2;
        } else {
          end = q + 1;
          break;
        }
      }
      const prefix = fts5[end] === '*';
      if (operand) out.push('&');
      out.push(phrase(text, prefix));
      operand = true;
      at = prefix ? end + 1 : end;
    } else if (c === '(') {
      if (operand) out.push('&');
      out.push('(');
      operand = false;
      at++;
    } else if (c === ')') {
      out.push(')');
      operand = true;
      at++;
    } else if (/^(OR|AND)(?=[\s("]|$)/u.test(fts5.slice(at))) {
      const or = fts5.startsWith('OR', at);
      out.push(or ? '|' : '&');
      operand = false;
      at += or ? 2 : 3;
    } else unsupported(fts5, at);
  }
  return out.join(' ');
}
