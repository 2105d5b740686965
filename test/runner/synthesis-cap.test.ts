// The synthesis word cap is hard (the store refuses a longer document): with hundreds or
// thousands of sessions the Timeline alone outgrows it, so it is compacted — detail first, every
// date kept for as long as possible, then the oldest dates merged into ranges — and recent facts
// are cut only after that. Every document here must also be accepted by the store.
import { describe, expect, it } from 'vitest';
import { countWords, MAX_CONTEXT_DOCUMENT_CHARS, MAX_CONTEXT_DOCUMENT_WORDS } from '../../electron/engine/context-documents/context-documents';
import type { Store } from '../../electron/engine/store';
import { generateDataset } from '../../electron/engine/runner/dataset';
import { emptyModel, parseContext, renderWithinCap, synthesize, type Synthesis, type SynthesisOptions } from '../../electron/engine/runner/synthesis';
import type { Session, SessionMessage } from '../../electron/engine/runner/types';
import { openTmpStore } from '../helpers/tmp';

const cap: SynthesisOptions = { maxWords: MAX_CONTEXT_DOCUMENT_WORDS, protectRecentSessions: 3 };

/** Runs every session through the synthesis, checking each document against the cap. */
function runAll(sessions: readonly Session[], options: SynthesisOptions, start: string | null = null): { doc: string; last: Synthesis; maxWords: number } {
  let doc = start;
  let last: Synthesis | undefined;
  let maxWords = 0;
  for (const s of sessions) {
    last = synthesize(doc, s, options);
    expect(last.words).toBe(countWords(last.text));
    maxWords = Math.max(maxWords, last.words);
    doc = last.text;
  }
  if (!last || doc === null) throw new Error('no sessions');
  return { doc, last, maxWords };
}

/** Every session the document still accounts for: exact dates, and ranges by their count. */
function coverage(doc: string): { exactDates: string[]; sessions: number; ranges: number } {
  const model = parseContext(doc);
  return {
    exactDates: model.timeline.filter((t) => t.count === undefined).map((t) => t.date),
    sessions: model.timeline.reduce((a, t) => a + (t.count ?? 1), 0),
    ranges: model.timeline.filter((t) => t.count !== undefined).length,
  };
}

function storeAccepts(doc: string): void {
  const store: Store = openTmpStore();
  try {
    store.scope({ kind: 'user', org: 'runner', user: 'cap' }, { create: true }).putContextDocument('memory', doc);
  } finally {
    store.close();
  }
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const msg = (extracted: NonNullable<SessionMessage['extracted']>, ts: string): SessionMessage => ({ role: 'user', text: 'x', ts, extracted });

describe('synthesis within the 5,000-word cap for many sessions', () => {
  it('800 two-message sessions: under the cap, every session date kept in order, recent facts kept', () => {
    const sessions = generateDataset({ sessions: 800, messagesPerSession: 2 });
    const { doc, last, maxWords } = runAll(sessions, cap);
    expect(maxWords).toBeLessThanOrEqual(MAX_CONTEXT_DOCUMENT_WORDS);
    expect(last.compacted).toBeGreaterThan(0); // the full timeline alone no longer fits
    const c = coverage(doc);
    expect(c.ranges).toBe(0);
    expect(c.exactDates).toEqual(sessions.map((s) => s.date));
    // The newest sessions keep their detail; only the oldest lost their summaries.
    const model = parseContext(doc);
    expect(model.timeline.at(-1)).toMatchObject({ date: sessions.at(-1)?.date, session: sessions.at(-1)?.id, summary: '2 messages' });
    expect(model.timeline[0]).toMatchObject({ date: sessions[0]?.date, summary: '' });
    for (const s of sessions.slice(-3)) for (const f of s.messages.flatMap((m) => m.extracted?.facts ?? [])) expect(model.facts.has(f.key), f.key).toBe(true);
    // The store accepts it (before the fix it refused 5,003 words).
    storeAccepts(doc);
    // Deterministic, compaction included.
    const next = generateDataset({ sessions: 801, messagesPerSession: 2 }).at(-1) as Session;
    expect(synthesize(doc, next, cap).text).toBe(synthesize(doc, next, cap).text);
  });

  it('20,000 session dates: the oldest merge into ranges, the recent stay exact, no session is lost from the count', () => {
    // Built directly (running 20,000 sessions one by one is the same path, only slower).
    const model = emptyModel();
    const first = '1990-01-01';
    for (let i = 0; i < 20_000; i++) model.timeline.push({ date: addDays(first, i), session: `s-${i + 1}`, summary: '2 messages; topics: 5k_time' });
    const lastDate = addDays(first, 19_999);
    model.facts.set('home_city', { value: 'Bristol', seen: lastDate, refs: 1 });
    model.facts.set('job_title', { value: 'analytics team lead', seen: addDays(first, 100), refs: 1 });
    const r = renderWithinCap(model, cap);
    expect(r.words).toBeLessThanOrEqual(MAX_CONTEXT_DOCUMENT_WORDS);
    const c = coverage(r.text);
    expect(c.sessions).toBe(20_000);
    expect(c.ranges).toBeGreaterThan(0);
    expect(c.exactDates.length).toBeGreaterThan(100);
    expect(c.exactDates.at(-1)).toBe(lastDate);
    // Ranges only at the old end, in order and not overlapping.
    const tl = parseContext(r.text).timeline;
    const lastRange = tl.findLastIndex((t) => t.count !== undefined);
    expect(tl.slice(0, lastRange + 1).every((t) => t.count !== undefined)).toBe(true);
    for (let i = 1; i < tl.length; i++) expect((tl[i - 1]?.until ?? tl[i - 1]?.date ?? '') < (tl[i]?.date ?? '')).toBe(true);
    // The recent fact is kept; the old unprotected one went first.
    expect(parseContext(r.text).facts.get('home_city')?.value).toBe('Bristol');
    expect(parseContext(r.text).facts.has('job_title')).toBe(false);
    storeAccepts(r.text);

    // The compacted document reads back and keeps compacting as sessions arrive.
    const more = Array.from({ length: 5 }, (_, i): Session => {
      const date = addDays(lastDate, i + 1);
      return { id: `s-new-${i}`, date, messages: [msg({ facts: [{ key: 'plants_bought', value: String(i) }] }, `${date}T09:00:00Z`)] };
    });
    const after = runAll(more, cap, r.text);
    expect(after.maxWords).toBeLessThanOrEqual(MAX_CONTEXT_DOCUMENT_WORDS);
    expect(coverage(after.doc).sessions).toBe(20_005);
    expect(parseContext(after.doc).timeline.at(-1)).toMatchObject({ session: 's-new-4', date: addDays(lastDate, 5) });
    expect(parseContext(after.doc).facts.get('plants_bought')?.value).toBe('4');
  });

  it('recent facts too long for the cap: the timeline loses detail but keeps every date; the oldest recent facts go', () => {
    const sessions = generateDataset({ sessions: 300, messagesPerSession: 2 });
    const lastDate = sessions.at(-1)?.date as string;
    const words = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
    // Two recent sessions whose facts alone come to ~8,000 words.
    const heavy: Session[] = [1, 2].map((d) => {
      const date = addDays(lastDate, d);
      return {
        id: `heavy-${d}`,
        date,
        messages: [msg({ facts: Array.from({ length: 40 }, (_, i) => ({ key: `k${d}_${i}`, value: words(100, 'w') })) }, `${date}T09:00:00Z`)],
      };
    });
    const { doc, maxWords } = runAll(heavy, cap, runAll(sessions, cap).doc);
    expect(maxWords).toBeLessThanOrEqual(MAX_CONTEXT_DOCUMENT_WORDS);
    const c = coverage(doc);
    expect(c.ranges).toBe(0);
    expect(c.exactDates).toEqual([...sessions, ...heavy].map((s) => s.date));
    const facts = parseContext(doc).facts;
    // Every fact of the newest session kept before any of the one before it.
    const newest = [...facts.keys()].filter((k) => k.startsWith('k2_')).length;
    const older = [...facts.keys()].filter((k) => k.startsWith('k1_')).length;
    expect(newest).toBe(40);
    expect(older).toBeLessThan(40);
    storeAccepts(doc);
  });

  it('a tiny cap still fits: the timeline collapses into ranges covering every session', () => {
    const sessions = generateDataset({ sessions: 200, messagesPerSession: 10 });
    const small = { maxWords: 50, protectRecentSessions: 3 };
    const { doc, maxWords } = runAll(sessions, small);
    expect(maxWords).toBeLessThanOrEqual(50);
    expect(coverage(doc).sessions).toBe(200);
    expect(coverage(doc).exactDates.at(-1)).toBe(sessions.at(-1)?.date);
  });

  it("keeps the store's character cap too (long values with few spaces)", () => {
    const date = '2026-03-01';
    const long = 'x'.repeat(1900);
    const session: Session = {
      id: 's-1',
      date,
      messages: [msg({ facts: Array.from({ length: 80 }, (_, i) => ({ key: `blob_${i}`, value: long })) }, `${date}T09:00:00Z`)],
    };
    const r = synthesize(null, session, cap);
    expect(r.text.length).toBeLessThanOrEqual(MAX_CONTEXT_DOCUMENT_CHARS);
    expect(r.pruned).toBeGreaterThan(0);
    expect(parseContext(r.text).timeline.map((t) => t.date)).toEqual([date]);
    storeAccepts(r.text);
  });

  it('refuses a cap too small for the headings, and a session date that is not YYYY-MM-DD', () => {
    const s: Session = { id: 's-1', date: '2026-03-01', messages: [] };
    expect(() => synthesize(null, s, { maxWords: 5, protectRecentSessions: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => synthesize(null, { ...s, date: 'March 1st' }, cap)).toThrow(/YYYY-MM-DD/);
  });
});
