import { describe, expect, it } from 'vitest';
import { SessionSummary } from '../../../shared/inspect';
import { codeOf, thrownBy } from '../../../test/helpers/errors';
import { describeStores } from '../../../test/helpers/stores';
import { MAX_CONTEXT_DOCUMENT_CHARS, MAX_CONTEXT_DOCUMENT_WORDS, countWords } from './context-documents';

const USER = { kind: 'user', org: 'acme', user: 'u1' } as const;

const DOC = (n: number) => `## Facts\n- User has MBA (v${n})\n## Timeline\n- 2026-01-0${n}\n## Entities\n## Preferences\n## Notes\n`;

describeStores('context documents', (openStore) => {
  it('appends versions n+1 and reads the latest, any version and the history', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    expect(p.contextDocument('s1')).toBeNull();
    expect(p.contextDocumentVersions('s1')).toEqual([]);
    const v1 = p.putContextDocument('s1', DOC(1));
    const v2 = p.putContextDocument('s1', DOC(2));
    p.putContextDocument('s2', DOC(9));
    expect([v1.version, v2.version]).toEqual([1, 2]);
    expect(p.contextDocument('s1')).toEqual(v2);
    expect(p.contextDocument('s1', 1)).toEqual(v1);
    expect(p.contextDocument('s1', 3)).toBeNull();
    expect(p.contextDocumentVersions('s1').map((v) => [v.version, v.words])).toEqual([
      [2, countWords(DOC(2))],
      [1, countWords(DOC(1))],
    ]);
    expect(p.contextDocument('s2')?.version).toBe(1);
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    expect(other.contextDocument('s1')).toBeNull();
    store.close();
  });

  it('refuses a document over 5,000 words or 100,000 characters with a typed error, writing nothing', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    const words = Array.from({ length: MAX_CONTEXT_DOCUMENT_WORDS + 1 }, (_, i) => `w${i}`).join(' ');
    expect(thrownBy(() => p.putContextDocument('s', words))).toMatchObject({ code: 'INVALID_INPUT', details: { words: 5001, maxWords: 5000 } });
    expect(codeOf(() => p.putContextDocument('s', 'x'.repeat(MAX_CONTEXT_DOCUMENT_CHARS + 1)))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.putContextDocument('', 'x'))).toBe('INVALID_INPUT');
    expect(codeOf(() => p.putContextDocument('s', 42 as unknown as string))).toBe('INVALID_INPUT');
    expect(p.putContextDocument('s', words.split(' ').slice(0, 5000).join(' ')).version).toBe(1);
    store.close();
  });
});

describe('countWords', () => {
  it('counts words by whitespace', () => {
    expect(countWords('')).toBe(0);
    expect(countWords('  a\tb\nc  ')).toBe(3);
  });
});

describeStores('listSessions', (openStore) => {
  it('lists every session with agent state, context documents or working items, most recent first', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.addWorkingItems([
      { sessionId: 'turns', key: 'turn_1', value: 'hi' },
      { sessionId: 'turns', key: 'turn_2', value: 'hello' },
    ]);
    p.applyAgentStateUpdate('planning', { assumptions: [{ id: 'a', hypothesis: 'x', confidence: 0.5 }] });
    p.putContextDocument('docs', DOC(1));
    p.putContextDocument('docs', DOC(2));
    p.putContextDocument('planning', DOC(3));
    const sessions = p.sessions();
    for (const s of sessions) expect(SessionSummary.parse(s)).toEqual(s);
    expect(sessions.map((s) => [s.sessionId, s.workingItems, s.hasAgentState, s.contextDocumentVersions])).toEqual([
      ['planning', 0, true, 1],
      ['docs', 0, false, 2],
      ['turns', 2, false, 0],
    ]);
    expect(store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true }).sessions()).toEqual([]);
    store.close();
  });
});
