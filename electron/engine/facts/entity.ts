// Whether two facts are about the same entity, so that a write under a different key can still
// supersede: keys that differ only by a version marker, entries of one lettered series, one
// explicitly named entity, or one entity (from the key, or named in a corrected value) with
// conflicting values. Pure and conservative: anything short of clear evidence is "not the same entity".
import { wordsOf } from './words';
import { correctionCue } from './inference';

/** `key-series`: keys lettered as entries of one series (instruction_a, instruction_b) are
 * statements on one matter; whether a later entry replaces an earlier is the decision's call
 * (authority or a change cue), since equals may simply disagree. */
export type EntityEvidenceKind = 'key-version' | 'key-series' | 'explicit-entity' | 'key-entity' | 'value-entity';

export interface EntityEvidence {
  readonly kind: EntityEvidenceKind;
  /** The entity both facts are about, as words ("meeting", "address"). */
  readonly entity: string;
  /** One line a person can check: which keys, words or values decided it. */
  readonly detail: string;
}

/** What the rules read of a fact: its key, its value and the entity its writer named. */
export interface EntityFacts {
  readonly key: string;
  readonly value: string;
  readonly entity: string | null;
}

// Trailing key words that mark a version of the same thing, not a different thing.
const VERSION_WORDS = new Set(['new', 'old', 'updated', 'corrected', 'revised', 'latest', 'previous', 'prev', 'amended']);
const isVersionWord = (w: string): boolean => /^v\d+$/.test(w) || VERSION_WORDS.has(w);
const isNumber = (w: string): boolean => /^\d+$/.test(w);
const isLetter = (w: string): boolean => /^[a-z]$/.test(w);

/** The key's words without trailing version markers: address_v2, Address-New and addressUpdated
 * all give "address". A trailing bare number stays (fact_1 and fact_2 are different facts). */
export function keyStem(key: string): string[] {
  const ws = wordsOf(key);
  while (ws.length > 1 && isVersionWord(ws[ws.length - 1] as string)) ws.pop();
  return ws;
}

type Family = 'when' | 'where' | 'amount' | 'owner' | 'status';

// The last word of a key names the attribute of the entity the words before it name
// (meeting_time: entity "meeting", attribute "time"). Attributes of one family describe the same
// property of the entity (a meeting's time and its day); start and end are different properties.
const ATTRIBUTES: Readonly<Record<string, Family>> = {
  time: 'when',
  day: 'when',
  date: 'when',
  when: 'when',
  schedule: 'when',
  slot: 'when',
  datetime: 'when',
  weekday: 'when',
  location: 'where',
  venue: 'where',
  place: 'where',
  room: 'where',
  address: 'where',
  site: 'where',
  amount: 'amount',
  price: 'amount',
  cost: 'amount',
  budget: 'amount',
  total: 'amount',
  fee: 'amount',
  owner: 'owner',
  assignee: 'owner',
  status: 'status',
  state: 'status',
};

export interface KeyEntity {
  /** The entity the key names, as words; the whole stem when no attribute word ends it. */
  readonly head: string;
  readonly attribute: string | null;
  readonly family: Family | null;
}

export function keyEntity(key: string): KeyEntity {
  const ws = keyStem(key);
  const last = ws[ws.length - 1] as string;
  const family = ATTRIBUTES[last] ?? null;
  if (family && ws.length > 1) return { head: ws.slice(0, -1).join(' '), attribute: last, family };
  return { head: ws.join(' '), attribute: family ? last : null, family };
}

export function normaliseEntity(entity: string): string {
  return wordsOf(entity).join(' ');
}

/** The entity a fact is filed under for lookups: its explicit entity, else its key's head, with
 * a number or a series letter that ends the key dropped (so address_2 finds address and
 * instruction_b finds instruction_a; the rules below still tell fact_1 from fact_2). A number inside the key names the entity (account.A-17.owner is filed
 * under "account a 17", not beside every other account). */
export function entityKey(key: string, entity: string | null | undefined): string {
  if (entity && normaliseEntity(entity)) return normaliseEntity(entity);
  const { head, attribute } = keyEntity(key);
  const words = head.split(' ');
  const last = words[words.length - 1] as string;
  if (attribute === null && words.length > 1 && (isNumber(last) || isLetter(last))) words.pop();
  return words.join(' ');
}

// --- Typed slots of a value: what "conflicting values" can be checked on ---------------------

type SlotKind = 'weekday' | 'time' | 'date' | 'money' | 'percent';
const FAMILY_SLOTS: Readonly<Record<Family, readonly SlotKind[]>> = {
  when: ['weekday', 'time', 'date'],
  amount: ['money', 'percent'],
  where: [],
  owner: [],
  status: [],
};
const ALL_SLOTS: readonly SlotKind[] = ['weekday', 'time', 'date', 'money', 'percent'];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const SLOT_PATTERNS: Readonly<Record<SlotKind, RegExp>> = {
  weekday: /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b/gi,
  time: /\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?m\.?\b|\b(\d{1,2}):(\d{2})\b|\b(noon|midnight)\b/gi,
  date: /\b(\d{4})-(\d{2})-(\d{2})\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b/gi,
  money: /[$€£]\s?(\d[\d,]*(?:\.\d+)?)\s*(k|m|thousand|million)?\b/gi,
  percent: /\b(\d+(?:\.\d+)?)\s?%/g,
};

function normaliseSlot(kind: SlotKind, m: RegExpExecArray): string {
  switch (kind) {
    case 'weekday':
      return (m[1] as string).toLowerCase();
    case 'time': {
      if (m[6]) return m[6].toLowerCase() === 'noon' ? '12:00' : '0:00';
      if (m[4]) return `${Number(m[4])}:${m[5]}`;
      const h = Number(m[1]) % 12;
      return `${(m[3] as string).toLowerCase() === 'p' ? h + 12 : h}:${m[2] ?? '00'}`;
    }
    case 'date':
      if (m[1]) return `${Number(m[2])}-${Number(m[3])}`;
      return `${MONTHS.indexOf((m[4] as string).toLowerCase()) + 1}-${Number(m[5])}`;
    case 'money': {
      const n = Number((m[1] as string).replace(/,/g, ''));
      const unit = (m[2] ?? '').toLowerCase();
      return String(n * (unit === 'k' || unit === 'thousand' ? 1e3 : unit === 'm' || unit === 'million' ? 1e6 : 1));
    }
    case 'percent':
      return String(Number(m[1]));
  }
}

function slots(text: string, kind: SlotKind): Set<string> {
  const found = new Set<string>();
  for (const m of text.matchAll(SLOT_PATTERNS[kind])) found.add(normaliseSlot(kind, m as RegExpExecArray));
  return found;
}

/** The kinds of typed slot a text states (weekday, time, date, money, percent), in a fixed order. */
export function slotKindsOf(text: string): SlotKind[] {
  return ALL_SLOTS.filter((kind) => slots(text, kind).size > 0);
}

/** The first slot both values state with different contents, e.g. weekday tuesday → thursday. */
export function slotConflict(oldValue: string, newValue: string, kinds: readonly SlotKind[] = ALL_SLOTS): string | null {
  for (const kind of kinds) {
    const a = slots(oldValue, kind);
    const b = slots(newValue, kind);
    if (a.size === 0 || b.size === 0) continue;
    if (a.size === b.size && [...a].every((v) => b.has(v))) continue;
    return `${kind} ${[...a].join('/')} → ${[...b].join('/')}`;
  }
  return null;
}

// Keys that name no entity of their own: a value under such a key may name the entity it is about.
const GENERIC_KEY_WORDS = new Set([
  'fact',
  'note',
  'notes',
  'update',
  'change',
  'message',
  'turn',
  'statement',
  'info',
  'event',
  'item',
  'entry',
  'correction',
  'remark',
  'comment',
]);

function isGenericKey(key: string): boolean {
  return wordsOf(key).every((w) => GENERIC_KEY_WORDS.has(w) || isNumber(w) || isVersionWord(w));
}

// A value that changes something says so: the correction cues, or a proposal to do it otherwise.
// Calling something off changes it as surely as moving it does.
const CHANGE_CUE =
  /\b(let'?s (do|move|have|make|hold|switch)|reschedul\w*|switch(ed)? to|postpone\w*|push(ed)? (it |back )?to|cancell?ed|called off|revoked|rescinded|withdrawn)\b/i;

export function changeCue(text: string): string | null {
  return correctionCue(text) ?? CHANGE_CUE.exec(text)?.[0] ?? null;
}

function names(value: string, entity: string): boolean {
  const v = ` ${wordsOf(value).join(' ')} `;
  return entity.length > 0 && v.includes(` ${entity} `);
}

/** The entity keys a new fact should be compared against (for the candidate lookup): its own,
 * its key's, and, for a value under a generic key that states a change, the word sequences of
 * its value that could name an entity. */
export function lookupEntities(f: EntityFacts): string[] {
  const out = new Set([entityKey(f.key, f.entity), entityKey(f.key, null)]);
  if (isGenericKey(f.key) && changeCue(f.value)) {
    const ws = wordsOf(f.value).filter((w) => w.length > 2 && !isNumber(w));
    for (let i = 0; i < ws.length && out.size < 64; i++) {
      out.add(ws[i] as string);
      if (i + 1 < ws.length) out.add(`${ws[i]} ${ws[i + 1]}`);
    }
  }
  return [...out];
}

/** Whether `neu` is about the entity `old` is about, and why; null when the evidence is not
 * clear. Equal values are the caller's business (a duplicate, not a supersession). */
export function sameEntity(old: EntityFacts, neu: EntityFacts): EntityEvidence | null {
  const oldExplicit = old.entity ? normaliseEntity(old.entity) : '';
  const newExplicit = neu.entity ? normaliseEntity(neu.entity) : '';
  // Two different entities named by their writers are different, whatever the keys look like.
  if (oldExplicit && newExplicit && oldExplicit !== newExplicit) return null;

  const oldStem = keyStem(old.key);
  const newStem = keyStem(neu.key);
  const stem = (ws: string[]): string => ws.join('_');
  if (stem(oldStem) === stem(newStem)) {
    return { kind: 'key-version', entity: oldStem.join(' '), detail: `key ${neu.key} is a version of ${old.key}` };
  }
  // address and address_2: a bare number after the other key's whole stem.
  const [shorter, longer] = oldStem.length < newStem.length ? [oldStem, newStem] : [newStem, oldStem];
  if (longer.length === shorter.length + 1 && isNumber(longer[longer.length - 1] as string) && stem(longer.slice(0, -1)) === stem(shorter)) {
    return { kind: 'key-version', entity: shorter.join(' '), detail: `key ${neu.key} is a numbered version of ${old.key}` };
  }
  // instruction_a and instruction_b: one stem, each ended by a single letter.
  if (
    oldStem.length === newStem.length &&
    oldStem.length > 1 &&
    isLetter(oldStem[oldStem.length - 1] as string) &&
    isLetter(newStem[newStem.length - 1] as string) &&
    stem(oldStem.slice(0, -1)) === stem(newStem.slice(0, -1))
  ) {
    const series = oldStem.slice(0, -1).join(' ');
    return { kind: 'key-series', entity: series, detail: `keys ${old.key} and ${neu.key} are entries of the series "${series}"` };
  }

  const a = keyEntity(old.key);
  const b = keyEntity(neu.key);
  const oldEntity = oldExplicit || a.head;
  const newEntity = newExplicit || b.head;
  if (oldEntity === newEntity) {
    const explicit = Boolean(oldExplicit || newExplicit);
    if (a.family && b.family && a.family !== b.family) return null; // a meeting's place is not its time
    if (a.family && a.family === b.family && explicit) {
      return { kind: 'explicit-entity', entity: oldEntity, detail: `both name the entity "${oldEntity}" and give its ${a.family} (${old.key}, ${neu.key})` };
    }
    const family = a.family ?? b.family;
    const conflict = slotConflict(old.value, neu.value, family ? FAMILY_SLOTS[family] : ALL_SLOTS);
    if (!conflict) return null;
    return explicit
      ? { kind: 'explicit-entity', entity: oldEntity, detail: `both name the entity "${oldEntity}"; conflicting ${conflict}` }
      : { kind: 'key-entity', entity: oldEntity, detail: `keys ${old.key} and ${neu.key} name the entity "${oldEntity}"; conflicting ${conflict}` };
  }

  // A value under a generic key that names the old fact's entity and states a change to it.
  if (!newExplicit && isGenericKey(neu.key) && names(neu.value, oldEntity)) {
    const cue = changeCue(neu.value);
    if (!cue) return null;
    const conflict = slotConflict(old.value, neu.value, a.family ? FAMILY_SLOTS[a.family] : ALL_SLOTS);
    if (!conflict) return null;
    return { kind: 'value-entity', entity: oldEntity, detail: `the value names "${oldEntity}" with the change cue "${cue}"; conflicting ${conflict}` };
  }
  return null;
}
