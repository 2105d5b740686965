// The two context runners: TOML selects them (context-only by default), the context-only runner
// makes exactly three store calls per session, the entries runner stores every message and
// flushes every N, both synthesise the same document, and the synthesis keeps its rules.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRunnerConfig, parseRunnerConfig } from '../../electron/engine/runner/config';
import { generateDataset } from '../../electron/engine/runner/dataset';
import { compareRunners, runSessions } from '../../electron/engine/runner/run';
import { parseContext, synthesize } from '../../electron/engine/runner/synthesis';
import type { Session } from '../../electron/engine/runner/types';
import { statelens } from '../helpers/child';
import { openTmpStore, tmpDir } from '../helpers/tmp';

function toml(text: string): string {
  const p = path.join(tmpDir(), 'statelens.toml');
  fs.writeFileSync(p, text);
  return p;
}

describe('runner selection by TOML', () => {
  it('context_only = true by default (empty file, missing table)', () => {
    expect(parseRunnerConfig('').agent.context_only).toBe(true);
    expect(parseRunnerConfig('[store]\npartition = "user:x/y"\n').agent.context_only).toBe(true);
    expect(loadRunnerConfig(toml('[agent]\ncontext_only = false\nflush_every = 4\n')).agent).toMatchObject({ context_only: false, flush_every: 4 });
  });

  it('context-only: exactly three store calls per session, and the log says so', async () => {
    const store = openTmpStore();
    const logs: string[] = [];
    const sessions = generateDataset({ sessions: 8, messagesPerSession: 10 });
    const r = await runSessions(store, loadRunnerConfig(toml('[agent]\ncontext_only = true\n')), sessions, (l) => logs.push(l));
    expect(r.runner).toBe('context_only');
    for (const s of r.sessions) {
      expect(s.storeCalls).toBe(3);
      expect(s.callsByKind).toEqual({ await_consistency: 1, get_context: 1, put_context: 1, add_entry: 0, list_entries: 0 });
    }
    expect(logs[0]).toMatch(/runner=context_only context_only=true/);
    expect(logs.filter((l) => /session=s-\d+/.test(l) && l.includes('context_only=true'))).toHaveLength(8);
    // No entries were stored: only the context document, one version per session.
    const h = store.scope({ kind: 'user', org: 'runner', user: 'agent' });
    expect(h.workingItems({ includeExpired: true })).toEqual([]);
    expect(h.contextDocumentVersions('memory')).toHaveLength(8);
    store.close();
  });

  it('entries: every message stored, the document flushed every N messages', async () => {
    const store = openTmpStore();
    const logs: string[] = [];
    const sessions = generateDataset({ sessions: 5, messagesPerSession: 10 });
    const r = await runSessions(store, parseRunnerConfig('[agent]\ncontext_only = false\nflush_every = 4\n'), sessions, (l) => logs.push(l));
    expect(r.runner).toBe('entries');
    // 10 messages, flushes after 4, 8 and the last 2: 1 + 1 + 10 + 3 list + 3 put.
    for (const s of r.sessions) expect(s.callsByKind).toEqual({ await_consistency: 1, get_context: 1, put_context: 3, add_entry: 10, list_entries: 3 });
    expect(logs[0]).toMatch(/runner=entries context_only=false flush_every=4/);
    const h = store.scope({ kind: 'user', org: 'runner', user: 'agent' });
    expect(h.workingItems({ includeExpired: true }).filter((w) => w.itemType === 'entry')).toHaveLength(50);
    expect(h.contextDocumentVersions('memory')).toHaveLength(15);
    store.close();
  });

  it('both runners end with the same document; context-only makes far fewer calls', async () => {
    const store = openTmpStore();
    const sessions = generateDataset({ sessions: 12 });
    const [entries, only] = await compareRunners(store, parseRunnerConfig(''), sessions, () => undefined);
    expect(entries?.runner).toBe('entries');
    expect(only?.runner).toBe('context_only');
    expect(only?.finalDocument).toBe(entries?.finalDocument);
    expect(only?.totalCalls).toBe(36);
    expect(entries?.totalCalls).toBe(12 * (2 + 10 + 2));
    store.close();
  });

  it('bad TOML names the line and key', () => {
    expect(() => parseRunnerConfig('[agent]\ncontext_only = maybe\n')).toThrow(/line 2/);
    expect(() => parseRunnerConfig('[agent]\ncontext_onyl = true\n')).toThrow(/line 2: agent\.context_onyl: unknown key/);
    expect(() => parseRunnerConfig('[agent]\n\nflush_every = 0\n')).toThrow(/line 3: agent\.flush_every/);
    expect(() => parseRunnerConfig('[agent]\nmax_words = 9000\n')).toThrow(/line 2: agent\.max_words/);
    expect(() => parseRunnerConfig('[agents]\n')).toThrow(/line 1: agents: unknown key/);
    expect(() => loadRunnerConfig(path.join(tmpDir(), 'missing.toml'))).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
});

describe('deterministic synthesis', () => {
  const opts = { maxWords: 5000, protectRecentSessions: 2 };
  const session = (id: string, date: string, messages: Session['messages']): Session => ({ id, date, messages });
  const msg = (extracted: NonNullable<Session['messages'][number]['extracted']>, text = 'x'): Session['messages'][number] => ({
    role: 'user',
    text,
    ts: `${'2026-01-01'}T00:00:00Z`,
    extracted,
  });

  it('current session wins, superseded facts go, timeline in order, latest preference, removed entities', () => {
    let doc = synthesize(
      null,
      session('s-2', '2026-01-05', [
        msg({
          facts: [
            { key: 'degree', value: "bachelor's" },
            { key: 'city', value: 'Leeds' },
          ],
          preferences: [{ topic: 'drink', value: 'tea' }],
          entities: [{ name: 'Dana', kind: 'person', relation: 'landlord' }],
          notes: ['visited the Prado'],
        }),
      ]),
      opts,
    ).text;
    doc = synthesize(
      doc,
      session('s-1', '2026-01-02', [
        msg({ facts: [{ key: 'mba', value: 'MBA done', supersedes: 'degree' }], preferences: [{ topic: 'drink', value: 'coffee' }] }),
        msg({ entities: [{ name: 'Dana', removed: true }] }),
      ]),
      opts,
    ).text;
    doc = synthesize(doc, session('s-3', '2026-01-09', [msg({ facts: [{ key: 'city', value: 'Bristol' }] })]), opts).text;
    const model = parseContext(doc);
    expect(Object.fromEntries([...model.facts].map(([k, v]) => [k, v.value]))).toEqual({ city: 'Bristol', mba: 'MBA done' });
    expect(model.timeline.map((t) => `${t.date} ${t.session}`)).toEqual(['2026-01-02 s-1', '2026-01-05 s-2', '2026-01-09 s-3']);
    expect(model.preferences.get('drink')?.value).toBe('coffee');
    expect(model.entities.has('Dana')).toBe(false);
    expect(model.notes.map((n) => n.text)).toEqual(['visited the Prado']);
    expect(doc.indexOf('## Facts')).toBeLessThan(doc.indexOf('## Timeline'));
    expect(doc.indexOf('## Timeline')).toBeLessThan(doc.indexOf('## Entities'));
    expect(doc.indexOf('## Preferences')).toBeLessThan(doc.indexOf('## Notes'));
    // Deterministic: the same input gives the same text.
    expect(synthesize(doc, session('s-4', '2026-01-10', []), opts).text).toBe(synthesize(doc, session('s-4', '2026-01-10', []), opts).text);
  });

  it('stays under the word cap, pruning oldest least-referenced first, keeping recent facts and the whole timeline', () => {
    const sessions = generateDataset({ sessions: 60, messagesPerSession: 10 });
    let doc: string | null = null;
    let pruned = 0;
    const cap = { maxWords: 700, protectRecentSessions: 3 };
    for (const s of sessions) {
      const r = synthesize(doc, s, cap);
      expect(r.words).toBeLessThanOrEqual(700);
      pruned += r.pruned;
      doc = r.text;
    }
    expect(pruned).toBeGreaterThan(0);
    const model = parseContext(doc);
    expect(model.timeline).toHaveLength(60);
    const last = sessions.at(-1) as Session;
    const recentDates = sessions.slice(-3).map((s) => s.date);
    for (const s of sessions.slice(-3)) {
      for (const f of s.messages.flatMap((m) => m.extracted?.facts ?? [])) expect(model.facts.has(f.key), `${f.key} of ${s.id}`).toBe(true);
    }
    // Oldest first: every note that was pruned is no newer than every note that stayed.
    const kept = new Set(model.notes.map((n) => n.text));
    const all = sessions.flatMap((s) => (s.messages.flatMap((m) => m.extracted?.notes ?? []) as string[]).map((text) => ({ text, date: s.date })));
    const prunedNotes = all.filter((n) => !kept.has(n.text));
    expect(prunedNotes.length).toBeGreaterThan(0);
    const newestPruned =
      prunedNotes
        .map((n) => n.date)
        .sort()
        .at(-1) ?? '';
    const oldestKept = model.notes.map((n) => n.seen).sort()[0] ?? '9999';
    expect(newestPruned <= oldestKept).toBe(true);
    expect(recentDates).toContain(last.date);
  });
});

describe('statelens runner (CLI, child process)', () => {
  it('prints store calls and time per session for both runners on a 50-session dataset', async () => {
    const config = toml('[agent]\ncontext_only = true\nflush_every = 10\n');
    const r = await statelens(['runner', '--config', config, '--sessions', '50', '--compare']);
    expect(r.code).toBe(0);
    console.log(r.stdout.split('\n').slice(-4).join('\n'));
    const rows = r.stdout.split('\n').filter((l) => /^\| s-\d{3} /.test(l));
    expect(rows).toHaveLength(50);
    for (const row of rows) {
      const cells = row.split('|').map((c) => c.trim());
      expect(cells[4]).toBe('14'); // entries: 1 + 1 + 10 add + 1 list + 1 put
      expect(cells[6]).toBe('3'); // context-only
    }
    expect(r.stdout).toMatch(/entries: 700 store calls/);
    expect(r.stdout).toMatch(/context_only: 150 store calls \(3\.0 per session\)/);
    expect(r.stderr).toMatch(/runner=entries context_only=false/);
    expect(r.stderr).toMatch(/runner=context_only context_only=true/);
  });

  it('runs the TOML-selected runner alone, and reports a bad TOML with exit code 2', async () => {
    const ok = await statelens(['runner', '--config', toml('[agent]\ncontext_only = false\n'), '--sessions', '3', '--json']);
    expect(ok.code).toBe(0);
    const parsed = JSON.parse(ok.stdout) as Array<{ runner: string; totalCalls: number }>;
    expect(parsed.map((p) => p.runner)).toEqual(['entries']);
    const bad = await statelens(['runner', '--config', toml('[agent]\ncontext_only = 3\n')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/line 2: agent\.context_only/);
  });
});
