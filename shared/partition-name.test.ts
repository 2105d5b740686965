import { describe, expect, it } from 'vitest';
import { PartitionRef } from './domain';
import { OrgName, PartitionName, showUnsafe } from './partition-name';

const refused = (name: string): string => {
  const r = PartitionName.safeParse(name);
  return r.success ? 'accepted' : (r.error.issues[0]?.message ?? '');
};

describe('partition names', () => {
  it('are NFKC-normalised: fullwidth letters, ligatures and composed accents are one name', () => {
    expect(OrgName.parse('ａｃｍｅ')).toBe('acme');
    expect(PartitionName.parse('ﬁnance')).toBe('finance');
    expect(PartitionName.parse('Rene\u0301')).toBe('René');
    expect(PartitionRef.parse({ kind: 'user', org: 'ａｃｍｅ', user: 'ann' })).toEqual({ kind: 'user', org: 'acme', user: 'ann' });
  });

  it('refuse invisible characters: zero-width space, joiners, word joiner, soft hyphen, BOM, variation selectors', () => {
    for (const c of ['\u200b', '\u200c', '\u200d', '\u2060', '\u00ad', '\ufeff', '\ufe0f', '\u180e', '\u{e0041}']) {
      expect(refused(`ac${c}me`), showUnsafe(c)).toMatch(/invisible characters/);
    }
    expect(showUnsafe('ac\u200bme')).toBe('ac\\u200bme');
  });

  it('refuse a name mixing scripts, naming the letters', () => {
    expect(refused('\u0430cme')).toMatch(/mixes scripts \(Cyrillic "а" \(U\+0430\), Latin "c" \(U\+0063\)\)/);
    expect(refused('p\u0430ypal')).toMatch(/mixes scripts/);
    expect(refused('\u03bfrg')).toMatch(/Greek/);
    expect(OrgName.safeParse('аcme').success).toBe(false);
  });

  it('accept names in one script, with digits and punctuation, and the mixes one language writes', () => {
    for (const name of ['acme', 'асме', 'Ωμέγα-2', '東京', 'team_7.ops', 'ann@acme.com', 'ソニー株式会社', 'Sony日本', '한국Han字', 'Zürich', 'Ελλάδα']) {
      expect(refused(name), name).toBe('accepted');
    }
  });
});
