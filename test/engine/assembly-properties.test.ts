// Properties of every strategy over random states, queries and budgets (fast-check, on every
// store): no superseded fact or proposal ever reaches the text, the exact token count of the
// final text never exceeds the budget, and provenance accounts for every fact exactly once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASSEMBLY_STRATEGIES, type AssemblyResult } from '../../shared/assembly';
import { ContextBuilder } from '../../electron/engine/assembly/text';
import { getTokenizer } from '../../electron/engine/assembly/tokenizer';
import { describeStores, propertyRuns } from '../helpers/stores';

const KEYS = ['budget', 'owner', 'deadline', 'vendor', 'discount', 'office'];
const WORDS = ['budget', 'owner', 'deadline', 'vendor', 'discount', 'office', 'policy', 'meeting', 'launch', 'the', 'what', 'is'];
const AUTHORITIES = [null, 'peer', 'intern', 'manager', 'policy'];
const SCOPES = ['global', 'global', 'global', 'hypothetical', 'draft'] as const;

const write = fc.record({
  key: fc.constantFrom(...KEYS),
  supersede: fc.boolean(),
  authority: fc.constantFrom(...AUTHORITIES),
  importance: fc.integer({ min: 0, max: 10 }),
  scope: fc.constantFrom(...SCOPES),
  hour: fc.integer({ min: 0, max: 47 }),
  words: fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }),
});
const turn = fc.record({ quote: fc.nat(), words: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }), hour: fc.integer({ min: 0, max: 47 }) });

const at = (hour: number): string => new Date(Date.UTC(2026, 0, 1, hour)).toISOString();

describeStores('assembly properties', (openStore, kind) => {
  it('never shows a dead fact, never exceeds the budget, accounts for every fact', () => {
    fc.assert(
      fc.property(
        fc.array(write, { minLength: 1, maxLength: 18 }),
        fc.array(turn, { maxLength: 8 }),
        fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }),
        fc.integer({ min: 0, max: 400 }),
        fc.option(fc.integer({ min: 0, max: 48 }), { nil: undefined }),
        (writes, turns, queryWords, budget, asOfHour) => {
          const store = openStore();
          try {
            const p = store.scope({ kind: 'user', org: 'o', user: 'u' }, { create: true });
            // Values are unique and delimited, so "present in the text" is a plain substring test.
            const values: string[] = [];
            writes.forEach((w, i) => {
              const value = `val-${i}-${w.words.join(' ')}-end`;
              values.push(value);
              p.writeFact({
                key: w.key,
                value,
                ts: at(w.hour),
                importance: w.importance,
                scope: w.scope,
                source: { type: w.authority === 'policy' ? 'policy' : 'user', authority: w.authority },
                ...(w.supersede ? { supersedes: w.key } : {}),
              });
            });
            p.addWorkingItems(
              turns.map((t, i) => ({
                key: `turn:${i}`,
                value: `${t.words.join(' ')} ${values[t.quote % values.length]} ${t.words.join(' ')}`,
                itemType: 'turn',
                speaker: 'user',
                createdAt: at(t.hour),
              })),
            );
            const all = p.allFacts();
            const items = new Map(p.workingItems({ includeExpired: true }).map((w) => [w.id, w]));
            const asOf = asOfHour === undefined ? undefined : at(asOfHour);
            const validThen = new Set((asOf === undefined ? p.validFacts() : p.allFactsAsOf(asOf)).map((f) => f.id));
            const dead = all.filter((f) => !validThen.has(f.id));
            for (const strategy of ASSEMBLY_STRATEGIES) {
              const r: AssemblyResult = p.assemble({ strategy, budget, query: queryWords.join(' '), ...(asOf ? { asOf } : {}) });
              expect(r.tokens).toBe(getTokenizer(r.tokenizer).count(r.text));
              if (r.budget !== null) expect(r.tokens).toBeLessThanOrEqual(budget);
              // Every fact exactly once, included only when valid at the assembly's time.
              const facts = r.provenance.filter((x) => x.kind === 'fact');
              expect(facts.map((x) => x.id).sort()).toEqual(all.map((f) => f.id).sort());
              for (const x of facts) if (x.status === 'included') expect(validThen.has(x.id)).toBe(true);
              // A dead fact's value is in no fact line of any strategy. In state_based it is in no
              // turn either, unless the turn was said after the value died (newer evidence); the
              // reference replays its last turns verbatim by design.
              const factText = r.sections
                .filter((s) => ['constraints', 'facts', 'review', 'hypothetical'].includes(s.name))
                .map((s) => r.text.slice(s.span[0], s.span[1]))
                .join('\n');
              for (const f of dead) expect(factText.includes(f.value), `${strategy}: ${f.value}`).toBe(false);
              if (strategy === 'state_based') {
                for (const f of dead) {
                  if (asOf !== undefined && f.ts > asOf) continue; // not yet written then: not dead text
                  let text = r.text;
                  for (const x of r.provenance) {
                    if (x.status !== 'included' || x.kind !== 'working_item') continue;
                    const w = items.get(x.id);
                    if (w && (f.validTo === null || w.createdAt > f.validTo))
                      text = text.slice(0, x.span[0]) + ' '.repeat(x.span[1] - x.span[0]) + text.slice(x.span[1]);
                  }
                  expect(text.includes(f.value), `state_based turn: ${f.value}`).toBe(false);
                }
              }
              for (const x of facts) {
                if (x.status !== 'included') continue;
                const line = r.text.slice(x.span[0], x.span[1]);
                expect(line).toContain(all.find((f) => f.id === x.id)?.value ?? '');
              }
            }
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: propertyRuns(kind, 40) },
    );
  });
});

describe('assembly token counts', () => {
  it('counts the final text exactly, whatever the lines hold (both encodings)', () => {
    const nasty = fc.string({
      unit: fc.constantFrom('a', 'Z', '1', ' ', '  ', '.', '/', '-', '#', "'s", '\n', '\r', '\t', 'é', '東', '😀', '<|endoftext|>', ':', '!!', '\u00a0'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), nasty), { maxLength: 12 }),
        fc.constantFrom('cl100k_base', 'o200k_base'),
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
        (lines, enc, budget) => {
          const tok = getTokenizer(enc);
          const b = new ContextBuilder(tok, budget, [
            { name: 'a', title: 'First' },
            { name: 'b', title: 'Second.' },
            { name: 'c', title: 'Third/' },
          ]);
          for (const [section, text] of lines) {
            if (budget === null) b.add(section, text);
            else b.tryAdd(section, text);
          }
          const out = b.finish();
          expect(out.tokens).toBe(tok.count(out.text));
          if (budget !== null) expect(out.tokens).toBeLessThanOrEqual(budget);
          for (const s of out.sections) expect(s.tokens).toBe(tok.count(out.text.slice(s.span[0], s.span[1])));
        },
      ),
      { numRuns: 300 },
    );
  });
});
