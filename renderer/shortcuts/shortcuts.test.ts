import { describe, expect, it } from 'vitest';
import { comboOf, SHORTCUTS } from './shortcuts';

const ev = (key: string, mods: Partial<{ shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) => ({
  key,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
});

describe('shortcut combos', () => {
  it('names keys the way the table lists them', () => {
    expect(comboOf(ev('?', { shiftKey: true }))).toBe('?');
    expect(comboOf(ev('D', { shiftKey: true }))).toBe('shift+D');
    expect(comboOf(ev('a', { ctrlKey: true }))).toBe('mod+a');
    expect(comboOf(ev('ArrowDown', { shiftKey: true }))).toBe('shift+ArrowDown');
    expect(comboOf(ev('j'))).toBe('j');
  });

  it('binds every combo to one action only', () => {
    const seen = new Map<string, string>();
    for (const s of SHORTCUTS) {
      for (const k of s.keys) {
        expect(seen.get(k), `${k} bound twice`).toBeUndefined();
        seen.set(k, s.id);
      }
    }
  });
});
