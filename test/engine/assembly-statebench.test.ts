// StateBench's phrase rule, and the runner on both shared splits: state_based must keep
// must_not_mention exposure at or under 30% while must_mention presence stays at least at the
// reference's and mean tokens at most the reference's (figures printed).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { containsPhrase, judgeContext } from '../../electron/engine/assembly/judge';
import { formatFigures, runStatebench } from '../../electron/engine/assembly/statebench-runner';
import { repoRoot } from '../helpers/paths';
import { tmpDir } from '../helpers/tmp';

const dataDir = path.resolve(repoRoot, '..', 'shared', 'statebench');
const present = fs.existsSync(path.join(dataDir, 'dev.jsonl')) && fs.existsSync(path.join(dataDir, 'test.jsonl'));
if (!present) console.warn(`[assembly-statebench] skipping the StateBench runs: ${dataDir} is absent`);

describe("StateBench's phrase rule", () => {
  it('matches case-insensitively, with alternatives, regex and contraction equivalence', () => {
    expect(containsPhrase('The budget is $120,000 TOTAL', '$120,000 total')).toBe(true);
    expect(containsPhrase('We should renegotiate', 'do not renew|renegotiate')).toBe(true);
    expect(containsPhrase('We should renew', 'do not renew|renegotiate')).toBe(false);
    expect(containsPhrase('deadline is 5pm Friday', 'regex:\\d+pm')).toBe(true);
    expect(containsPhrase('deadline is Friday', 'regex:\\d+pm')).toBe(false);
    expect(containsPhrase("We don't renew", 'do not renew')).toBe(true);
    expect(containsPhrase('We do not renew', "don't renew")).toBe(true);
    expect(containsPhrase("You can't exceed it", 'cannot exceed')).toBe(true);
    expect(containsPhrase('You should not go', "shouldn't go")).toBe(true);
    expect(containsPhrase('anything', 'regex:([')).toBe(false);
    const j = judgeContext('Portland office, Room 1', { must_mention: ['Portland', 'Room 2'], must_not_mention: ['Seattle', 'room 1'] });
    expect(j.mentioned).toEqual(['Portland']);
    expect(j.violations).toEqual(['room 1']);
  });
});

describe.skipIf(!present)('StateBench runner on the shared splits', () => {
  for (const split of ['dev', 'test'] as const) {
    it(`${split}: state_based beats the reference's exposure and keeps its presence and size`, async () => {
      const out = path.join(tmpDir(), `${split}.jsonl`);
      const run = await runStatebench({ file: path.join(dataDir, `${split}.jsonl`), strategy: 'state_based', out });
      console.log(formatFigures(run).join('\n'));
      const ref = run.comparison;
      expect(ref).not.toBeNull();
      if (!ref) return;
      expect(run.primary.queries).toBe(split === 'dev' ? 248 : 251);
      expect(ref.mustNotMentionExposure).toBeGreaterThan(0.45);
      expect(run.primary.mustNotMentionExposure).toBeLessThanOrEqual(0.3);
      expect(run.primary.mustMentionPresence).toBeGreaterThanOrEqual(ref.mustMentionPresence);
      expect(run.primary.meanTokensApprox).toBeLessThanOrEqual(ref.meanTokensApprox);
      expect(run.primary.meanTokens).toBeLessThanOrEqual(ref.meanTokens);

      // One line per query, query_index 0-based within its timeline, the declared fields only.
      const lines = fs
        .readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines).toHaveLength(run.primary.queries);
      expect(Object.keys(lines[0] ?? {}).sort()).toEqual(['context', 'excluded', 'included', 'query_index', 'strategy', 'timeline_id', 'tokens'].sort());
      const seen = new Map<string, number>();
      for (const l of lines) {
        const t = String(l.timeline_id);
        expect(l.query_index).toBe(seen.get(t) ?? 0);
        seen.set(t, (seen.get(t) ?? 0) + 1);
        expect(l.strategy).toBe('state_based');
        expect(l.tokens as number).toBeLessThanOrEqual(run.budget);
      }
    });
  }
});
