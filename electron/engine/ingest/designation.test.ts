import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../../shared/errors';
import { openTmpStore } from '../../../test/helpers/tmp';
import { parseDesignation, PartitionDesignation } from './designation';

const UNSAFE = ['\u0000', '\n', '\r', '\u0007', '\u202e', '\u202a', '\u2066', '\u2069', '\u200e', '\u200f', '\u2028'];

describe('partition names', () => {
  it('refuse control characters, line breaks and bidirectional marks in every part, in both forms', () => {
    for (const c of UNSAFE) {
      for (const text of [`user:ac${c}me/u1`, `user:acme/u${c}1`, `capability:acme/bill${c}ing`, `org:ac${c}me`]) {
        expect(() => parseDesignation(text), JSON.stringify(text)).toThrow(StatelensError);
      }
      for (const ref of [
        { kind: 'user', org: `a${c}`, user: 'u' },
        { kind: 'user', org: 'a', user: `u${c}` },
        { kind: 'organizational', org: `a${c}` },
      ]) {
        expect(PartitionDesignation.safeParse(ref).success, JSON.stringify(ref)).toBe(false);
      }
    }
    // The message shows the offending character as an escape, never raw.
    expect(() => parseDesignation('user:acme/eve\u202eliam')).toThrow(
      /"user:acme\/eve\\u202eliam" is not a partition: user must not contain control characters/,
    );
  });

  it('an org cannot hold "/" (it could not be typed back); a user or capability can, and stays addressable', () => {
    expect(PartitionDesignation.safeParse({ kind: 'user', org: 'a/b', user: 'u' }).success).toBe(false);
    expect(parseDesignation('user:acme/team/ann')).toEqual({ kind: 'user', org: 'acme', user: 'team/ann' });
    const store = openTmpStore();
    const h = store.scope({ kind: 'user', org: 'acme', user: 'team/ann' }, { create: true });
    expect(store.scope(parseDesignation('user:acme/team/ann')).id).toBe(h.id);
    expect(() => store.scope({ kind: 'user', org: 'a/b', user: 'u' }, { create: true })).toThrow(/cannot be created: org an org must not contain "\/"/);
    expect(() => store.scope({ kind: 'user', org: 'acme', user: 'x\u202ey' }, { create: true })).toThrow(/x\\u202ey cannot be created/);
    expect(store.listPartitions().map((p) => p.id)).toEqual([h.id]);
    store.close();
  });
});
