// Token counting as OpenAI models count: gpt-tokenizer's cl100k_base and o200k_base encodings.
// Special-token text (e.g. "<|endoftext|>") in memory is counted as plain text, as an API does
// with user content. Counts of short pieces are memoised, since ranking re-counts the same lines.
// An encoding's tables are large and slow to load, so each is loaded on its first use, not when
// the engine is imported: a CLI start or an MCP server that never counts tokens does not pay it.
import { createRequire } from 'node:module';
import type { TokenizerName } from '../../../shared/assembly';

const requireEncoding = createRequire(import.meta.url);

export interface Tokenizer {
  readonly name: TokenizerName;
  count(text: string): number;
  /** The longest prefix of `text` (cut at a token boundary) of at most `max` tokens. */
  truncate(text: string, max: number): string;
}

const PLAIN = { disallowedSpecial: new Set<string>() };
const PIECE_CACHE_LIMIT = 200_000;
const PIECE_MAX_CHARS = 2_000;

interface Encoding {
  countTokens(text: string, options: typeof PLAIN): number;
  encode(text: string, options: typeof PLAIN): number[];
  decode(tokens: Iterable<number>): string;
}

function makeTokenizer(name: TokenizerName, enc: Encoding): Tokenizer {
  // Insertion-ordered Map as a cheap LRU-ish cache: cleared wholesale when full.
  const cache = new Map<string, number>();
  return {
    name,
    count(text) {
      if (text.length === 0) return 0;
      if (text.length > PIECE_MAX_CHARS) return enc.countTokens(text, PLAIN);
      const hit = cache.get(text);
      if (hit !== undefined) return hit;
      const n = enc.countTokens(text, PLAIN);
      if (cache.size >= PIECE_CACHE_LIMIT) cache.clear();
      cache.set(text, n);
      return n;
    },
    truncate(text, max) {
      if (max <= 0) return '';
      const tokens = enc.encode(text, PLAIN);
      if (tokens.length <= max) return text;
      // Decoding a prefix can end inside a multi-byte character; drop the replacement char.
      let out = enc.decode(tokens.slice(0, max));
      while (out.endsWith('\uFFFD')) out = out.slice(0, -1);
      while (out.length > 0 && enc.countTokens(out, PLAIN) > max) out = out.slice(0, -1);
      return out;
    },
  };
}

const tokenizers: Partial<Record<TokenizerName, Tokenizer>> = {};

export function getTokenizer(name: TokenizerName = 'cl100k_base'): Tokenizer {
  let t = tokenizers[name];
  if (!t) {
    const enc = requireEncoding(name === 'o200k_base' ? 'gpt-tokenizer/encoding/o200k_base' : 'gpt-tokenizer/encoding/cl100k_base') as Encoding;
    t = makeTokenizer(name, enc);
    tokenizers[name] = t;
  }
  return t;
}

/** The README's rough measure (characters / 4), kept beside real counts for comparison. */
export function approxTokens(text: string): number {
  return text.length / 4;
}
