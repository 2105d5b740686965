// Plain domain objects for presentational component tests (data, not stand-ins for code).
import type { AssemblyResult } from '../../shared/assembly';
import type { Fact } from '../../shared/domain';

let n = 0;
export function fact(over: Partial<Fact> = {}): Fact {
  n += 1;
  return {
    id: `f_${n}`,
    label: null,
    key: 'home_city',
    value: `value ${n}`,
    source: { type: 'user', identity: 'ana', authority: 'employee', turnIndex: n, eventIndex: null },
    ts: '2025-01-01T00:00:00.000Z',
    createdAt: '2025-01-01T00:00:00.000Z',
    lastAccessedAt: null,
    accessCount: 0,
    importance: 0.5,
    memoryType: 'user',
    level: null,
    scope: 'global',
    scopeId: null,
    status: 'active',
    isValid: true,
    supersededBy: null,
    supersedes: null,
    supersessionRule: null,
    supersessionReason: null,
    validTo: null,
    proposalFor: null,
    needsReview: false,
    reviewCause: null,
    reviewCauseFact: null,
    isConstraint: false,
    constraintType: null,
    timeSensitive: false,
    dependsOn: [],
    derivedFacts: [],
    ...over,
  };
}

/** A three-version chain (implicit, then authority) with a lower-authority proposal. */
export function chainFixture(): { versions: Fact[]; proposals: Fact[] } {
  const v1 = fact({
    id: 'v1',
    value: 'Ana lives in Lyon',
    ts: '2025-01-05T00:00:00.000Z',
    status: 'superseded',
    isValid: false,
    supersededBy: 'v2',
    supersessionRule: 'implicit',
    supersessionReason: 'same key with a conflicting value',
    validTo: '2025-03-01T00:00:00.000Z',
  });
  const v2 = fact({
    id: 'v2',
    value: 'Ana lives in Paris <b>now</b>',
    ts: '2025-03-01T00:00:00.000Z',
    status: 'superseded',
    isValid: false,
    supersedes: 'v1',
    supersededBy: 'v3',
    supersessionRule: 'authority',
    supersessionReason: 'executive outranks employee',
    validTo: '2025-08-01T00:00:00.000Z',
  });
  const v3 = fact({
    id: 'v3',
    value: 'HR record: Munich',
    ts: '2025-08-01T00:00:00.000Z',
    supersedes: 'v2',
    source: { type: 'document', identity: 'hr', authority: 'executive', turnIndex: null, eventIndex: null },
  });
  const p = fact({
    id: 'p1',
    value: 'Intern says Madrid',
    ts: '2025-09-01T00:00:00.000Z',
    status: 'proposal',
    isValid: false,
    proposalFor: 'v3',
    supersessionRule: 'authority',
    supersessionReason: 'intern may not override executive',
    source: { type: 'user', identity: 'intern', authority: 'intern', turnIndex: null, eventIndex: null },
  });
  return { versions: [v1, v2, v3], proposals: [p] };
}

export function assembly(
  strategy: AssemblyResult['strategy'],
  items: Array<{ id: string; label: string; text: string; section?: string }>,
  excluded: Array<{ id: string; label: string; reason: 'budget' | 'superseded' | 'scope' }> = [],
): AssemblyResult {
  let text = '## Facts\n';
  const provenance: AssemblyResult['provenance'] = [];
  items.forEach((it, i) => {
    const start = text.length;
    text += `- ${it.text}`;
    provenance.push({
      kind: 'fact',
      id: it.id,
      label: it.label,
      status: 'included',
      rank: i + 1,
      score: 1 - i / 10,
      components: [{ name: 'relevance', value: 1 - i / 10 }],
      section: it.section ?? 'facts',
      span: [start + 2, text.length],
      marks: [],
    });
    text += '\n';
  });
  for (const e of excluded) provenance.push({ kind: 'fact', id: e.id, label: e.label, status: 'excluded', reason: e.reason });
  return {
    strategy,
    tokenizer: 'cl100k_base',
    text,
    tokens: Math.ceil(text.length / 4),
    budget: 100,
    query: 'where',
    now: '2025-10-01T00:00:00.000Z',
    asOf: null,
    sections: [{ name: 'facts', title: 'Facts', tokens: Math.ceil(text.length / 4), span: [0, text.length] }],
    provenance,
    provenanceComplete: true,
    counts: { included: items.length, excluded: { budget: excluded.filter((e) => e.reason === 'budget').length } },
  };
}
