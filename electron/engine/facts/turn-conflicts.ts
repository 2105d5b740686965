// Implicit supersession from conversation turns, decided without a language model: a turn that
// names the entity of a fact, states a different value of the same kind (day, time, date,
// amount, percentage, quantity, address, place, name) and carries a change cue contradicts it.
// Pure functions over strings; the write side (what to record) lives in layers/turns.ts.
import { queryWords, stem } from '../assembly/terms';

/** The kinds of value a fact and a turn are compared on; a quantity is keyed by its unit. */
export type ValueKind = 'day' | 'time' | 'date' | 'money' | 'percent' | 'address' | 'place' | 'name' | `quantity:${string}`;

export interface ValueMention {
  readonly kind: ValueKind;
  /** Normalised form compared across texts ("14:00", "thursday", "1500"). */
  readonly norm: string;
  /** The words as written. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export interface ConflictCandidate {
  readonly id: string;
  readonly key: string;
  readonly value: string;
}

export interface ValueChange {
  readonly kind: ValueKind;
  readonly from: string;
  readonly to: string;
}

export interface TurnConflict {
  readonly factId: string;
  /** The change cue as the turn says it ("let's do", "actually", "moved to"). */
  readonly cue: string;
  /** The entity words of the fact the turn names. */
  readonly entity: string;
  /** Values of one kind that differ; empty when the turn denies the fact without a new value. */
  readonly changes: readonly ValueChange[];
  /** Confident: supersede with `replacement`. Otherwise flag the fact for review (`doubt` says why). */
  readonly confident: boolean;
  readonly doubt: string | null;
  /** The fact's value with each changed value replaced by the turn's (confident only). */
  readonly replacement: string | null;
  /** Set when the turn does not name the entity: the fact was found as the one current fact
   * holding a value of the kinds the turn states; `holders` is how many facts hold one. */
  readonly byValueKind?: { readonly kinds: readonly ValueKind[]; readonly holders: number };
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const DAY_RE = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|thurs)\b/gi;
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_WORD = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?';
const DATE_MD_RE = new RegExp(`\\b${MONTH_WORD}\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b`, 'gi');
const DATE_DM_RE = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_WORD}\\b`, 'gi');
const DATE_ISO_RE = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
const TIME_AMPM_RE = /\b(\d{1,2})(?::(\d{2}))?\s*(a\.m\.?|p\.m\.?|am|pm)(?![a-z])/gi;
const TIME_24_RE = /\b([01]?\d|2[0-3]):([0-5]\d)\b/g;
const TIME_WORD_RE = /\b(noon|midday|midnight)\b/gi;
const MONEY_RE =
  /(?:[$€£]\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|bn|million|thousand|billion)\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:k|m)?\s(?:dollars|usd|euros?|eur|pounds|gbp)\b)/gi;
const PERCENT_RE = /\b\d+(?:\.\d+)?\s?(?:%|percent\b)/gi;
const ADDRESS_RE = /\b\d+\s+(?:[A-Z][a-z]+\s+){1,3}(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Lane|Ln|Dr|Drive|Way|Court|Ct|Place|Pl|Square|Sq)\b\.?/g;
const CAPITALISED = "(?:[A-Z][\\w'&-]*|\\d+[A-Za-z]?)";
const PLACE_RE = new RegExp(`\\b(?:in|at|to|from)\\s+(${CAPITALISED}(?:\\s+${CAPITALISED}){0,3})`, 'g');
const NAME_RE = new RegExp(`\\b(?:with|named|called|by)\\s+(${CAPITALISED}(?:\\s+${CAPITALISED}){0,2})`, 'g');
const QUANTITY_RE = /\b(\d[\d,]*(?:\.\d+)?)\s+([a-z]{3,})\b/gi;

/** Words that open a sentence or are calendar names: never a place or a name by themselves. */
const NOT_PROPER = new Set([
  'i',
  'the',
  'a',
  'an',
  'this',
  'that',
  'it',
  'we',
  'our',
  'my',
  'your',
  'let',
  "let's",
  'lets',
  'please',
  ...DAYS,
  'tues',
  'thurs',
  ...MONTHS,
  'noon',
  'midnight',
  'midday',
]);
/** Words after a number that are not units of a count. */
const NOT_UNITS = new Set([
  'and',
  'or',
  'the',
  'for',
  'with',
  'from',
  'into',
  'onto',
  'than',
  'per',
  'percent',
  'dollars',
  'usd',
  'euros',
  'euro',
  'eur',
  'pounds',
  'gbp',
  'thousand',
  'million',
  'billion',
  ...MONTHS,
  ...DAYS,
]);

function numberNorm(text: string): string {
  const m = /(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn|million|thousand|billion)?/i.exec(text);
  if (!m) return text.toLowerCase();
  let n = Number((m[1] ?? '').replace(/,/g, ''));
  const scale = (m[2] ?? '').toLowerCase();
  if (scale === 'k' || scale === 'thousand') n *= 1e3;
  else if (scale === 'm' || scale === 'million') n *= 1e6;
  else if (scale === 'bn' || scale === 'billion') n *= 1e9;
  return String(n);
}

function monthIndex(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  return MONTHS.findIndex((m) => m.startsWith(w.slice(0, 3)));
}

function dayNorm(word: string): string {
  const w = word.toLowerCase();
  return DAYS.find((d) => d.startsWith(w.slice(0, 3))) ?? w;
}

function properPhrase(phrase: string): string | null {
  const parts = phrase.split(/\s+/);
  while (parts.length > 0 && NOT_PROPER.has((parts[parts.length - 1] ?? '').toLowerCase())) parts.pop();
  if (parts.length === 0 || NOT_PROPER.has((parts[0] ?? '').toLowerCase())) return null;
  return parts.join(' ');
}

/** Every typed value a text states, earlier kinds winning where spans overlap. */
export function extractValues(text: string): ValueMention[] {
  const out: ValueMention[] = [];
  const taken = (start: number, end: number) => out.some((m) => start < m.end && m.start < end);
  const add = (kind: ValueKind, norm: string, mText: string, start: number) => {
    const end = start + mText.length;
    if (!taken(start, end)) out.push({ kind, norm, text: mText, start, end });
  };
  const each = (re: RegExp, fn: (m: RegExpExecArray) => void) => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) fn(m);
  };
  each(ADDRESS_RE, (m) => add('address', m[0].toLowerCase().replace(/\s+/g, ' ').replace(/\.$/, ''), m[0], m.index));
  each(DATE_ISO_RE, (m) => add('date', `${m[2]}-${m[3]}`, m[0], m.index));
  each(DATE_MD_RE, (m) => add('date', `${String(monthIndex(m[1] ?? '') + 1).padStart(2, '0')}-${(m[2] ?? '').padStart(2, '0')}`, m[0], m.index));
  each(DATE_DM_RE, (m) => add('date', `${String(monthIndex(m[2] ?? '') + 1).padStart(2, '0')}-${(m[1] ?? '').padStart(2, '0')}`, m[0], m.index));
  each(TIME_AMPM_RE, (m) => {
    let h = Number(m[1]) % 12;
    if (/^p/i.test(m[3] ?? '')) h += 12;
    add('time', `${String(h).padStart(2, '0')}:${m[2] ?? '00'}`, m[0], m.index);
  });
  each(TIME_24_RE, (m) => add('time', `${(m[1] ?? '').padStart(2, '0')}:${m[2] ?? '00'}`, m[0], m.index));
  each(TIME_WORD_RE, (m) => add('time', /night/i.test(m[0]) ? '00:00' : '12:00', m[0], m.index));
  each(DAY_RE, (m) => add('day', dayNorm(m[0]), m[0], m.index));
  each(MONEY_RE, (m) => add('money', numberNorm(m[0]), m[0], m.index));
  each(PERCENT_RE, (m) => add('percent', numberNorm(m[0]), m[0], m.index));
  each(PLACE_RE, (m) => {
    const phrase = properPhrase(m[1] ?? '');
    if (phrase) add('place', phrase.toLowerCase(), phrase, m.index + m[0].indexOf(phrase));
  });
  each(NAME_RE, (m) => {
    const phrase = properPhrase(m[1] ?? '');
    if (phrase && !/^\d/.test(phrase)) add('name', phrase.toLowerCase(), phrase, m.index + m[0].indexOf(phrase));
  });
  each(QUANTITY_RE, (m) => {
    const unit = (m[2] ?? '').toLowerCase();
    if (NOT_UNITS.has(unit)) return;
    add(`quantity:${stem(unit.replace(/s$/, ''))}`, numberNorm(m[1] ?? ''), m[0], m.index);
  });
  return out.sort((a, b) => a.start - b.start);
}

// Change cues: the speaker replaces what was agreed. Denials say it no longer holds.
const CHANGE_CUES: readonly RegExp[] = [
  /\blet'?s (?:do|make|move|have|go with|switch|change|push|set|say|hold|meet|use|plan)\b/i,
  /\b(?:actually|instead|rather|correction|scratch that|overrid(?:e|es|ing)|overruled?)\b/i,
  /\b(?:changed?|changing|moved?|moving|switch(?:ed|ing)?|updated?|shift(?:ed)?|push(?:ed)?|bump(?:ed)?|pushed back|postponed?|brought forward) (?:it |that |this |them )?(?:to|until|back to|up to|forward to)\b/i,
  /\breschedul(?:e|ed|ing)\b/i,
  /\b(?:make|made) it\b/i,
  /\b(?:is|are|will be|'s) now\b|\bnow (?:is|are|it's|on|at|in)\b/i,
  /\bnew (?:date|day|time|amount|figure|number|address|location|venue|place|plan)\b/i,
];
const DENIAL_CUES: readonly RegExp[] = [/\bno longer\b/i, /\bnot \w+(?: \w+)? any ?more\b/i, /\b(?:cancell?ed|called off|scrapped|dropped)\b/i];
/** The turn only asks or wonders: worth a review, not a supersession. */
const HEDGES = /\?|\b(?:maybe|perhaps|might|could we|should we|can we|shall we|would it|possibly|thinking about|considering|not sure|wonder)\b/i;
/** Imagined states never change a fact. */
const HYPOTHETICAL = /\b(?:what if|hypothetically|suppose|supposing|imagine if|in theory)\b/i;

function firstCue(text: string, cues: readonly RegExp[]): string | null {
  let best: RegExpExecArray | null = null;
  for (const re of cues) {
    const m = re.exec(text);
    if (m && (!best || m.index < best.index)) best = m;
  }
  return best ? best[0].toLowerCase() : null;
}

/** Words that name an attribute or a version rather than the entity ("meeting_time_v2"). */
const ATTRIBUTE_WORDS = new Set([
  'time',
  'day',
  'date',
  'when',
  'where',
  'location',
  'place',
  'venue',
  'amount',
  'value',
  'status',
  'new',
  'old',
  'latest',
  'info',
  'information',
  'detail',
  'details',
  'note',
  'notes',
  'fact',
  'data',
  'number',
  'count',
  'total',
  'name',
  'schedule',
  'scheduled',
  'set',
  'plan',
  'planned',
  'current',
  'updated',
  'final',
  'confirmed',
  'agreed',
]);

function keyWords(key: string): string[] {
  const spaced = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[^\p{L}\p{N}]+/gu, ' ');
  return queryWords(spaced)
    .filter((w) => !/^v?\d+$/.test(w.word) && !ATTRIBUTE_WORDS.has(w.word))
    .map((w) => w.stem);
}

/** The entity of a fact: the content words of its key, else the words of its value outside its
 * typed values ("Meeting is Tuesday at 2pm" -> meeting). Stems, with the words as written. */
export function entityOf(fact: Pick<ConflictCandidate, 'key' | 'value'>, mentions: readonly ValueMention[] = extractValues(fact.value)): Map<string, string> {
  const fromKey = keyWords(fact.key);
  const out = new Map<string, string>();
  if (fromKey.length > 0) {
    const spaced = fact.key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[^\p{L}\p{N}]+/gu, ' ');
    for (const w of queryWords(spaced)) if (fromKey.includes(w.stem)) out.set(w.stem, w.word);
    return out;
  }
  let rest = fact.value;
  for (const m of [...mentions].sort((a, b) => b.start - a.start)) rest = rest.slice(0, m.start) + ' ' + rest.slice(m.end);
  for (const w of queryWords(rest)) if (!ATTRIBUTE_WORDS.has(w.word) && !/^\d/.test(w.word)) out.set(w.stem, w.word);
  return out;
}

function mentionsByKind(mentions: readonly ValueMention[]): Map<ValueKind, ValueMention[]> {
  const by = new Map<ValueKind, ValueMention[]>();
  for (const m of mentions) by.set(m.kind, [...(by.get(m.kind) ?? []), m]);
  return by;
}

const sameNorms = (a: readonly ValueMention[], b: readonly ValueMention[]) => {
  const x = new Set(a.map((m) => m.norm));
  const y = new Set(b.map((m) => m.norm));
  return x.size === y.size && [...x].every((n) => y.has(n));
};

interface Match {
  fact: ConflictCandidate;
  entity: string;
  score: number;
  changes: ValueChange[];
  ambiguous: string | null;
  replacement: string | null;
}

/** The values of the fact the turn changes (kinds both state, with different values), and the
 * fact's value with each swapped for the turn's when every changed kind holds one value each. */
function compareValues(
  fact: ConflictCandidate,
  factMentions: readonly ValueMention[],
  turnByKind: Map<ValueKind, ValueMention[]>,
): Pick<Match, 'changes' | 'ambiguous' | 'replacement'> {
  const changes: ValueChange[] = [];
  const swaps: Array<{ at: ValueMention; to: string }> = [];
  let ambiguous: string | null = null;
  for (const [kind, old] of mentionsByKind(factMentions)) {
    const said = turnByKind.get(kind);
    if (!said || sameNorms(old, said)) continue;
    changes.push({ kind, from: old.map((m) => m.text).join(', '), to: said.map((m) => m.text).join(', ') });
    const [o] = old;
    const [s] = said;
    if (old.length === 1 && said.length === 1 && o && s) swaps.push({ at: o, to: s.text });
    else ambiguous ??= `more than one ${kind} in the fact or the turn`;
  }
  let replacement: string | null = null;
  if (changes.length > 0 && ambiguous === null) {
    replacement = fact.value;
    for (const { at, to } of swaps.sort((a, b) => b.at.start - a.at.start)) replacement = replacement.slice(0, at.start) + to + replacement.slice(at.end);
  }
  return { changes, ambiguous, replacement };
}

function compare(fact: ConflictCandidate, turnStems: ReadonlySet<string>, turnByKind: Map<ValueKind, ValueMention[]>): Match | null {
  const factMentions = extractValues(fact.value);
  const entity = entityOf(fact, factMentions);
  const named = [...entity].filter(([s]) => turnStems.has(s));
  if (named.length === 0) return null;
  return { fact, entity: named.map(([, w]) => w).join(' '), score: named.length / entity.size, ...compareValues(fact, factMentions, turnByKind) };
}

/** Whether a turn could change any fact at all (a change or denial cue, not an imagined state):
 * callers skip looking up candidate facts for every other turn. */
export function mayChangeFacts(turn: string): boolean {
  return !HYPOTHETICAL.test(turn) && (firstCue(turn, CHANGE_CUES) !== null || firstCue(turn, DENIAL_CUES) !== null);
}

/**
 * The facts a turn contradicts. Nothing without a change cue, for imagined states, for facts
 * whose entity the turn does not name, or when every value the turn states equals the fact's.
 * A denial ("no longer", "cancelled") of a named fact is flagged even without a new value.
 */
export function detectTurnConflicts(turn: string, facts: readonly ConflictCandidate[]): TurnConflict[] {
  if (HYPOTHETICAL.test(turn)) return [];
  const change = firstCue(turn, CHANGE_CUES);
  const denial = firstCue(turn, DENIAL_CUES);
  if (!change && !denial) return [];
  const turnStems = new Set(queryWords(turn).map((w) => w.stem));
  const turnByKind = mentionsByKind(extractValues(turn));
  const hedge = HEDGES.exec(turn);
  const matches = facts.map((f) => compare(f, turnStems, turnByKind)).filter((m): m is Match => m !== null);
  const changed = matches.filter((m) => m.changes.length > 0 && change !== null);
  // Among facts whose values the turn changes, the ones it names best; a tie is ambiguous.
  const best = changed.reduce((b, m) => Math.max(b, m.score), 0);
  const top = changed.filter((m) => m.score === best);
  const out: TurnConflict[] = [];
  for (const m of changed) {
    let doubt = m.ambiguous;
    if (hedge) doubt ??= `the turn asks or hedges ("${hedge[0].toLowerCase()}") rather than decides`;
    if (m.score < best) doubt ??= 'another fact matches the turn better';
    if (top.length > 1) doubt ??= `${top.length} facts match the turn equally well`;
    out.push({
      factId: m.fact.id,
      cue: change ?? '',
      entity: m.entity,
      changes: m.changes,
      confident: doubt === null,
      doubt,
      replacement: doubt === null ? m.replacement : null,
    });
  }
  if (denial) {
    for (const m of matches) {
      if (m.changes.length > 0 && change !== null) continue;
      out.push({
        factId: m.fact.id,
        cue: denial,
        entity: m.entity,
        changes: [],
        confident: false,
        doubt: 'the turn says it no longer holds without stating what replaces it',
        replacement: null,
      });
    }
  }
  return out;
}

const DETERMINED = /\b(?:the|my|our|your|his|her|their|this|that)\s+([a-z][a-z'-]*)(?:\s+([a-z][a-z'-]*))?/gi;
/** Words between a determiner and the thing it names ("the new time"), never a thing by themselves. */
const MODIFIERS = new Set(['new', 'old', 'same', 'other', 'next', 'last', 'first', 'final', 'usual', 'whole', 'current', 'real', 'actual']);

/** The thing a turn names with a determiner ("the dentist", "our offsite"), if any: a content
 * word that is neither an attribute of a value ("the time") nor a value itself ("this Friday").
 * A turn that names a thing speaks of that thing, so it never changes another fact unnamed. */
export function namedThing(turn: string): string | null {
  DETERMINED.lastIndex = 0;
  for (let m = DETERMINED.exec(turn); m !== null; m = DETERMINED.exec(turn)) {
    for (const word of [m[1], m[2]]) {
      const w = (word ?? '').toLowerCase();
      if (!w || MODIFIERS.has(w)) continue;
      const [content] = queryWords(w);
      if (content && !ATTRIBUTE_WORDS.has(content.word) && !NOT_PROPER.has(content.word) && !NOT_UNITS.has(content.word)) return content.word;
      break;
    }
  }
  return null;
}

/** Facts an unnamed change may flag when it fits several equally: beyond this the turn points
 * at none of them in particular and nothing is recorded. */
export const MAX_UNNAMED_REVIEWS = 3;

/**
 * A change stated without the entity's name ("I moved to 456 Oak Ave" against "My address is
 * 123 Main St"): with a change cue, the turn states values of some kinds; the fact it changes is
 * the one current fact holding values of those kinds. Facts are ranked by how many of the turn's
 * kinds they hold; a single best one whose value differs is changed (or flagged when the turn
 * hedges or its values do not map one to one), several equal ones are each flagged (at most
 * MAX_UNNAMED_REVIEWS), and a turn that only restates a fact's values changes nothing. `facts`
 * must be every current fact the turn could speak about, including ones its speaker may not
 * change (they still make the turn ambiguous): the caller drops those from the outcome.
 */
export function detectUnnamedChange(turn: string, facts: readonly ConflictCandidate[]): TurnConflict[] {
  if (HYPOTHETICAL.test(turn) || namedThing(turn) !== null) return [];
  const change = firstCue(turn, CHANGE_CUES);
  if (!change) return [];
  const turnByKind = mentionsByKind(extractValues(turn));
  if (turnByKind.size === 0) return [];
  const holders: Array<{ fact: ConflictCandidate; kinds: ValueKind[]; mentions: ValueMention[] }> = [];
  for (const fact of facts) {
    const mentions = extractValues(fact.value);
    const kinds = [...new Set(mentions.map((m) => m.kind))].filter((k) => turnByKind.has(k));
    if (kinds.length > 0) holders.push({ fact, kinds, mentions });
  }
  const best = holders.reduce((b, h) => Math.max(b, h.kinds.length), 0);
  const top = holders.filter((h) => h.kinds.length === best);
  if (top.length === 0 || top.length > MAX_UNNAMED_REVIEWS) return [];
  const hedge = HEDGES.exec(turn);
  const out: TurnConflict[] = [];
  for (const h of top) {
    const { changes, ambiguous, replacement } = compareValues(h.fact, h.mentions, turnByKind);
    // The turn restates this fact's values: it speaks of it and changes nothing.
    if (changes.length === 0) return [];
    let doubt = ambiguous;
    if (hedge) doubt ??= `the turn asks or hedges ("${hedge[0].toLowerCase()}") rather than decides`;
    if (top.length > 1) doubt ??= `the turn does not name what it changes and ${top.length} current facts hold a ${describeKinds(changes)}`;
    out.push({
      factId: h.fact.id,
      cue: change,
      entity: h.fact.key,
      changes,
      confident: doubt === null,
      doubt,
      replacement: doubt === null ? replacement : null,
      byValueKind: { kinds: h.kinds, holders: top.length },
    });
  }
  return out;
}

const KIND_NAMES: Record<string, string> = {
  day: 'day',
  time: 'time',
  date: 'date',
  money: 'amount',
  percent: 'percentage',
  address: 'address',
  place: 'place',
  name: 'name',
};

/** "day and time" — what changed, in words (quantities by their unit). */
export function describeKinds(changes: readonly ValueChange[]): string {
  const names = changes.map((c) => KIND_NAMES[c.kind] ?? `number of ${c.kind.replace(/^quantity:/, '')}`);
  return names.length <= 1 ? (names[0] ?? 'value') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1] ?? ''}`;
}

/** A turn that names a current fact's entity and states its value beside others of the same kind. */
export interface ValueContrast {
  readonly kind: ValueKind;
  /** The fact's (current) value of that kind, as the fact writes it. */
  readonly current: string;
  /** The turn's other values of that kind: earlier or rejected ones. */
  readonly others: string;
}

/** A fact read once for contrastWith: its typed values by kind, entity stems and whole value. */
export interface ContrastFact<F extends Pick<ConflictCandidate, 'key' | 'value'> = Pick<ConflictCandidate, 'key' | 'value'>> {
  readonly fact: F;
  readonly byKind: ReadonlyMap<ValueKind, { readonly norms: ReadonlySet<string>; readonly text: string }>;
  readonly entityStems: readonly string[];
  readonly wholeValue: string;
}

/** A turn read once for contrastWith. Only kinds it states two or more distinct values of can
 * contrast (the current value plus another), so a turn without any is read no further. */
export interface TurnReading {
  readonly stems: ReadonlySet<string>;
  /** Per kind with at least two distinct values: the values as written. */
  readonly severalByKind: ReadonlyMap<ValueKind, readonly ValueMention[]>;
  readonly lower: string;
}

/** The fact as contrastWith compares it; null when it states no typed value (nothing to contrast). */
export function contrastFact<F extends Pick<ConflictCandidate, 'key' | 'value'>>(fact: F): ContrastFact<F> | null {
  const mentions = extractValues(fact.value);
  if (mentions.length === 0) return null;
  const byKind = new Map<ValueKind, { norms: ReadonlySet<string>; text: string }>();
  for (const [kind, ms] of mentionsByKind(mentions)) byKind.set(kind, { norms: new Set(ms.map((m) => m.norm)), text: ms.map((m) => m.text).join(', ') });
  return { fact, byKind, entityStems: [...entityOf(fact, mentions).keys()], wholeValue: fact.value.trim().toLowerCase() };
}

const NO_STEMS: ReadonlySet<string> = new Set();
// Turn texts repeat across assemblies (the same working set is assembled again on every call).
const readings = new Map<string, TurnReading>();
const READINGS_KEPT = 4096;

export function readTurn(turn: string): TurnReading {
  const kept = readings.get(turn);
  if (kept) return kept;
  const severalByKind = new Map<ValueKind, ValueMention[]>();
  for (const [kind, ms] of mentionsByKind(extractValues(turn))) if (new Set(ms.map((m) => m.norm)).size >= 2) severalByKind.set(kind, ms);
  const reading: TurnReading =
    severalByKind.size === 0
      ? { stems: NO_STEMS, severalByKind, lower: '' }
      : { stems: new Set(queryWords(turn).map((w) => w.stem)), severalByKind, lower: turn.toLowerCase() };
  if (readings.size >= READINGS_KEPT) readings.delete(readings.keys().next().value as string);
  readings.set(turn, reading);
  return reading;
}

/**
 * Whether a turn recounts a current fact against values it replaced ("it was Friday, then
 * Thursday, now Monday"): the turn names the fact's entity (or quotes its whole value) and, for
 * some kind of value, states every value the fact holds plus at least one other. The fact already
 * says which is current, so the others are history. A turn that states only a different value is
 * not a contrast (that is a contradiction, decided when the turn is recorded).
 * Both sides come read once (contrastFact, readTurn): assembly compares every turn of the
 * working set with every shown fact.
 */
export function contrastWith(turn: TurnReading, fact: ContrastFact): ValueContrast | null {
  if (turn.severalByKind.size === 0) return null;
  if (!turn.lower.includes(fact.wholeValue) && !fact.entityStems.some((s) => turn.stems.has(s))) return null;
  for (const [kind, current] of fact.byKind) {
    const said = turn.severalByKind.get(kind);
    if (!said || ![...current.norms].every((n) => said.some((m) => m.norm === n))) continue;
    const others = said.filter((m) => !current.norms.has(m.norm));
    if (others.length > 0) return { kind, current: current.text, others: others.map((m) => m.text).join(', ') };
  }
  return null;
}

/** contrastWith for one turn and one fact given as text. */
export function contrastWithCurrent(turn: string, fact: Pick<ConflictCandidate, 'key' | 'value'>): ValueContrast | null {
  const prepared = contrastFact(fact);
  return prepared ? contrastWith(readTurn(turn), prepared) : null;
}

/** A correction that points back at what was just said ("change that to Thursday", "actually,
 * let's go back to X") instead of naming an entity: the new value it states, and its cue. */
export interface BackReference {
  readonly cue: string;
  readonly value: string;
  /** The attribute the correction names ("change the quantity to 1500"), else null. */
  readonly names: string | null;
}

const BACK_REFERENCES: readonly RegExp[] = [
  /\b((?:change|move|switch|push|update|set|make|bump|shift)\s+(?:that|it|this)\s+(?:to|until|for))\s+((?:[^.,;!?]|[.,](?=\d))+)/i,
  /\b((?:make|set)\s+(?:that|it))\s+((?:[^.,;!?]|[.,](?=\d))+)/i,
  /\b((?:change|move|switch|update|set|bump)\s+the\s+([a-z]+(?:\s[a-z]+)?)\s+to)\s+((?:[^.,;!?]|[.,](?=\d))+)/i,
  /\b((?:actually|instead|no wait|scratch that|correction)\b[^.;!?]*?\b(?:go back to|switch to|change to|go with|use))\s+((?:[^.,;!?]|[.,](?=\d))+)/i,
];

/** The back-referring correction a turn makes, if any (never for a hedge or an imagined state). */
export function backReference(turn: string): BackReference | null {
  if (HYPOTHETICAL.test(turn) || HEDGES.test(turn)) return null;
  for (const re of BACK_REFERENCES) {
    const m = re.exec(turn);
    const named = m && m.length > 3 ? (m[2] ?? null) : null;
    const value = m?.[m.length - 1]?.trim().replace(/^(?:the|a|an)\s+/i, '');
    if (m && value) return { cue: (m[1] ?? '').toLowerCase().replace(/\s+/g, ' '), value, names: named ? named.toLowerCase() : null };
  }
  return null;
}
