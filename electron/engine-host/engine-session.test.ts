import { describe, expect, it } from 'vitest';
import { serverTarget } from './engine-session';

describe('serverTarget', () => {
  it('puts the password into the connection URL only, encoded so any character survives', () => {
    const password = 'p@ss w%rd:/?#';
    const target = serverTarget({ url: 'postgres://ana@db.example:5432/memory?sslmode=verify-full', password });
    expect(target.kind).toBe('server');
    const url = new URL(target.kind === 'server' ? target.url : '');
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(url.username).toBe('ana');
    expect(url.pathname).toBe('/memory');
    expect(url.searchParams.get('sslmode')).toBe('verify-full');
  });

  it('leaves a URL without a password as it is', () => {
    expect(serverTarget({ url: 'postgres://ana@db.example/memory', password: null })).toEqual({ kind: 'server', url: 'postgres://ana@db.example/memory' });
    expect(serverTarget({ url: 'postgres://ana@db.example/memory', password: '' })).toEqual({ kind: 'server', url: 'postgres://ana@db.example/memory' });
  });
});
