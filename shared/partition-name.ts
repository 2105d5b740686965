// The rules for the names that make up a partition (org, user, capability): every interface shows
// them and agents type them back, so two names that look alike must not be two partitions. A
// name is NFKC-normalised (fullwidth "ａｃｍｅ" is "acme"); control characters, bidirectional
// marks and invisible characters (zero-width spaces and joiners, soft hyphens, variation
// selectors) are refused, and so is a name mixing scripts (a Cyrillic "а" inside "acme").
import { z } from 'zod';

/** Control characters, line breaks, bidirectional marks and every default-ignorable (invisible)
 * code point: zero-width space/joiners, word joiner, soft hyphen, BOM, variation selectors, tags. */
/** Characters no name or audit text may hold: control, format and invisible characters and
 * bidirectional marks, which would let text rewrite how a log line or a name reads. */
export const UNSAFE_NAME = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const UNSAFE_NAME_ALL = new RegExp(UNSAFE_NAME.source, 'gu');

/** `text` with every character a partition name refuses shown as a \u escape, for messages. */
export function showUnsafe(text: string): string {
  return text.replace(UNSAFE_NAME_ALL, (c) => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`);
}

/** The one form a partition name is stored and looked up in. */
export function normalisePartitionName(name: string): string {
  return name.normalize('NFKC');
}

// Scripts whose letters are told apart; digits, punctuation and combining marks belong to none.
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Georgian',
  'Hebrew',
  'Arabic',
  'Syriac',
  'Thaana',
  'Devanagari',
  'Bengali',
  'Gurmukhi',
  'Gujarati',
  'Oriya',
  'Tamil',
  'Telugu',
  'Kannada',
  'Malayalam',
  'Sinhala',
  'Thai',
  'Lao',
  'Tibetan',
  'Myanmar',
  'Khmer',
  'Mongolian',
  'Ethiopic',
  'Cherokee',
  'Hangul',
  'Hiragana',
  'Katakana',
  'Bopomofo',
  'Han',
] as const;
const SCRIPT_PATTERNS = SCRIPTS.map((name) => ({ name, pattern: new RegExp(`\\p{Script=${name}}`, 'u') }));

/** Script combinations one language writes together (Japanese, Chinese, Korean with Latin). */
const ONE_WRITING_SYSTEM: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

function scriptOf(letter: string): string {
  return SCRIPT_PATTERNS.find((s) => s.pattern.test(letter))?.name ?? 'Other';
}

/** The scripts of a name's letters, each with the first letter seen in it. */
function scriptsOf(name: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const ch of name) {
    // Letters common to every script (the long-vowel mark ー, ª) tell no script apart.
    if (!/\p{L}/u.test(ch) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(ch)) continue;
    const script = scriptOf(ch);
    if (!found.has(script)) found.set(script, ch);
  }
  return found;
}

/** Why a (normalised) name mixes scripts a reader could confuse, or undefined when it does not. */
export function mixedScriptProblem(name: string): string | undefined {
  const scripts = scriptsOf(name);
  if (scripts.size <= 1) return undefined;
  const names = [...scripts.keys()];
  if (ONE_WRITING_SYSTEM.some((system) => names.every((s) => system.has(s)))) return undefined;
  const shown = [...scripts].map(([script, ch]) => `${script} "${ch}" (U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')})`);
  return `mixes scripts (${shown.join(', ')}): a name in one script cannot be mistaken for another`;
}

/** One part of a partition's name, normalised and checked. */
export const PartitionName = z
  .string()
  .transform(normalisePartitionName)
  .pipe(
    z
      .string()
      .min(1)
      .max(200)
      .refine((s) => !UNSAFE_NAME.test(s), { message: 'must not contain control characters, line breaks, bidirectional marks or invisible characters' })
      .refine((s) => s.trim() === s, { message: 'must not start or end with spaces' })
      .superRefine((s, ctx) => {
        const problem = mixedScriptProblem(s);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  );

/** An organisation's name: a partition name that also holds no "/" or space, since it is the
 * first part of user:ORG/USER. */
export const OrgName = PartitionName.refine((s) => !/[/\s]/.test(s), {
  message: 'an org must not contain "/" or spaces (it is the first part of user:ORG/USER)',
});
