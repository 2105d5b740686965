// The authority table: roles recognised word by word from titles, never from substrings, with
// what decided each; unrecognised text ranks as a peer and says so.
import { describe, expect, it } from 'vitest';
import { ROLE_RANKS, authorityRank, describeAuthority, recogniseAuthority, recogniseRole } from './authority';

describe('recogniseRole', () => {
  it.each([
    ['policy', 'policy'],
    ['CEO', 'executive'],
    ['CFO', 'executive'],
    ['cto', 'executive'],
    ['VP Sales', 'executive'],
    ['SVP Engineering', 'executive'],
    ['Vice President, Marketing', 'executive'],
    ['Chief Revenue Officer', 'executive'],
    ['President', 'executive'],
    ['Co-founder', 'executive'],
    ['Head of International Sales', 'director'],
    ['Engineering Director', 'director'],
    ['Non-executive director', 'director'],
    ['Sales Manager', 'manager'],
    ['Tech Lead', 'manager'],
    ['Supervisor', 'manager'],
    ['Customer Success Manager', 'manager'],
    ['staff', 'employee'],
    ['Software Engineer', 'employee'],
    ['Data Analyst', 'employee'],
    ['Sales Associate', 'employee'],
    ['Account Executive', 'employee'],
    ['Support Agent', 'employee'],
    ['contractor', 'contractor'],
    ['intern', 'intern'],
    ['Marketing Trainee', 'intern'],
    ['guest', 'guest'],
    ['Visitor', 'guest'],
    ['peer', 'peer'],
  ])('%s is %s', (title, role) => {
    expect(recogniseRole(title)?.role).toBe(role);
  });

  it('reads words, not substrings: none of these names a role', () => {
    for (const text of ['policyholder', 'internal', 'International', 'vpn', 'headquarters', 'ceosomething', 'People Ops', 'directory']) {
      expect(recogniseRole(text), text).toBeNull();
    }
  });

  it('a negation voids the role after it', () => {
    expect(recogniseRole('not-a-ceo')).toBeNull();
    expect(recogniseRole('ex-CFO')).toBeNull();
    expect(recogniseRole('former manager')).toBeNull();
  });

  it('negating and modifying words, before or after the title, give no rank', () => {
    for (const text of [
      'anti-policy',
      'policy-violator',
      'CEO impersonator',
      'CFO impostor',
      'non-manager',
      'fake VP',
      'former CEO',
      'CEO-not',
      'VP wannabe',
      'anti policy activist',
    ]) {
      expect(recogniseRole(text), text).toBeNull();
    }
    // A negated word leaves the rest of the title its rank.
    expect(recogniseRole('non-executive director')?.role).toBe('director');
    expect(recogniseRole('CEO impersonator, intern')?.role).toBe('intern');
  });

  it('a name glued to a title is a name, not the title', () => {
    for (const text of ['ceoSmith', 'CFOjones', 'vpSales', 'JohnCEO', 'policyBot']) expect(recogniseRole(text), text).toBeNull();
    expect(recogniseRole('CEO Smith')?.role).toBe('executive');
    expect(recogniseRole('Sales_Manager')?.role).toBe('manager');
  });

  it('says which words decided', () => {
    expect(recogniseRole('Head of International Sales')).toEqual({ role: 'director', by: 'head of' });
    expect(recogniseRole('VP Sales')).toEqual({ role: 'executive', by: 'vp' });
  });
});

describe('recogniseAuthority and authorityRank', () => {
  it('ranks policy > executive > director > manager > employee > contractor/intern > guest', () => {
    const ladder = ['guest', 'intern', 'employee', 'Sales Manager', 'Head of International Sales', 'VP Sales', 'policy'];
    for (let i = 1; i < ladder.length; i++) expect(authorityRank(ladder[i]), ladder[i]).toBeGreaterThan(authorityRank(ladder[i - 1]));
    expect(authorityRank('contractor')).toBe(authorityRank('intern'));
  });

  it('an unrecognised role ranks as a peer, says so, and is not an executive', () => {
    const a = recogniseAuthority('not-a-ceo', 'user');
    expect(a).toEqual({ role: 'peer', rank: ROLE_RANKS.peer, recognised: false, by: null, origin: 'source' });
    expect(authorityRank('not-a-ceo')).toBeLessThan(authorityRank('CEO'));
    expect(authorityRank('policyholder')).toBeLessThan(authorityRank('policy'));
    expect(describeAuthority('not-a-ceo', 'user', a)).toBe('not-a-ceo (unrecognised role: ranks as peer)');
  });

  it('a policy source without an authority ranks as policy; a stated role wins over the source type', () => {
    expect(recogniseAuthority(null, 'policy')).toMatchObject({ role: 'policy', recognised: true, by: 'source type policy' });
    expect(recogniseAuthority('executive', 'policy').role).toBe('executive');
    expect(recogniseAuthority(null, 'user')).toMatchObject({ role: 'peer', recognised: false, origin: 'none' });
  });

  it('names an identity authority as such', () => {
    const a = recogniseAuthority('intern', 'user', 'identity');
    expect(describeAuthority('intern', 'user', a)).toBe('intern (intern, from the session identity)');
  });
});
