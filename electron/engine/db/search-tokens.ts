// The one word splitter of full-text search on PostgreSQL, shared by the index (as a regular
// expression inside the document function of PostgreSQL migration 2) and by the queries (in JS):
// the characters FTS5's unicode61 tokenizer treats as separators, as code-point ranges, so that
// both sides cut a text into the same tokens whatever the database's locale. Letters, digits and
// private-use characters are tokens, as in FTS5; a few rare symbol blocks are not listed and stay
// inside tokens. Changing the ranges changes the index: it needs a new PostgreSQL migration.

/** Inclusive code-point ranges of separators (NUL excluded: text never holds it). */
export const SEPARATOR_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x01, 0x2f], // controls, space, ASCII punctuation before the digits
  [0x3a, 0x40],
  [0x5b, 0x60], // [ \ ] ^ _ `
  [0x7b, 0xa9], // { | } ~, controls, no-break space, ¡ to ©
  [0xab, 0xb1], // « to ±
  [0xb4, 0xb4],
  [0xb6, 0xb8],
  [0xbb, 0xbb],
  [0xbf, 0xbf],
  [0xd7, 0xd7], // ×
  [0xf7, 0xf7], // ÷
  [0x2000, 0x206f], // general punctuation (typographic spaces, dashes, quotes, …)
  [0x20a0, 0x20cf], // currency signs
  [0x2190, 0x23ff], // arrows, mathematical operators, technical symbols
  [0x2500, 0x2775], // box drawing, shapes, miscellaneous symbols, dingbats
  [0x2794, 0x27ff],
  [0x2900, 0x2bff],
  [0x3000, 0x3004], // CJK spaces and punctuation
  [0x3008, 0x3020],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff01, 0xff0f], // full-width punctuation
  [0xff1a, 0xff20],
  [0xff3b, 0xff40],
  [0xff5b, 0xff65],
  [0x1f000, 0x1faff], // emoji and pictographs
];

const hex = (n: number, width: number): string => n.toString(16).toUpperCase().padStart(width, '0');

const pgEscape = (n: number): string => (n > 0xffff ? `\\U${hex(n, 8)}` : `\\u${hex(n, 4)}`);
const jsEscape = (n: number): string => `\\u{${hex(n, 1)}}`;
const classOf = (escape: (n: number) => string): string =>
  `[${SEPARATOR_RANGES.map(([a, b]) => (a === b ? escape(a) : `${escape(a)}-${escape(b)}`)).join('')}]`;

/** The separator class in PostgreSQL's regular-expression syntax (ARE escapes, standard strings). */
export const SEPARATOR_CLASS_PG = classOf(pgEscape);

const SEPARATORS_JS = new RegExp(`${classOf(jsEscape)}+`, 'u');
const TOKENS_JS = new RegExp(`[^${classOf(jsEscape).slice(1)}+`, 'gu');

/** The tokens of a text as the PostgreSQL index cuts it (before lower-casing and unaccenting,
 * which the store's text search configuration does to both sides alike). */
export function searchTokens(text: string): string[] {
  return text.split(SEPARATORS_JS).filter((t) => t.length > 0);
}

/** The tokens of a text with where each starts and ends (UTF-16 offsets, end exclusive). */
export function searchTokenSpans(text: string): Array<{ readonly token: string; readonly start: number; readonly end: number }> {
  return [...text.matchAll(TOKENS_JS)].map((m) => ({ token: m[0], start: m.index, end: m.index + m[0].length }));
}
