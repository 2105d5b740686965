// Telling PostgreSQL targets from files, and the redacted form of a server URL that messages and
// logs show: no part of a password survives, however it is written into the URL.
import { describe, expect, it } from 'vitest';
import { describeTarget, parsePgTarget, redactUrl } from './target';

describe('redactUrl', () => {
  it('hides the password in the user information, encoded or not, and keeps the rest', () => {
    expect(redactUrl('postgres://ana:s3cret@db.example:5432/memory?sslmode=verify-full')).toBe('postgres://ana:***@db.example:5432/memory?sslmode=verify-full');
    expect(redactUrl(`postgresql://ana:${encodeURIComponent('p@ss w:rd/?#')}@db.example/memory`)).toBe('postgresql://ana:***@db.example/memory');
    // An unencoded @ in the password: URL parsers take the last @ as the end of it.
    const raw = redactUrl('postgres://ana:p@ss@word@db.example/memory');
    expect(raw).toBe('postgres://ana:***@db.example/memory');
    expect(new URL('postgres://ana:p@ss@word@db.example/memory').hostname).toBe('db.example');
  });

  it('hides a password given as a parameter, which the driver also reads', () => {
    expect(redactUrl('postgres://ana@db.example/memory?password=s3cret&sslmode=verify-full')).toBe(
      'postgres://ana@db.example/memory?password=***&sslmode=verify-full',
    );
    expect(redactUrl('postgres://ana@db.example/memory?sslmode=verify-full&PASSWORD=s3cret')).toBe(
      'postgres://ana@db.example/memory?sslmode=verify-full&PASSWORD=***',
    );
  });

  it('leaves a URL without a password as it is', () => {
    for (const url of [
      'postgres://ana@db.example/memory',
      'postgres://db.example:5432/memory?sslrootcert=/etc/ca.crt',
      'postgres://ana@db.example/memory?passwordless=1',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('names a target without its password', () => {
    expect(describeTarget(parsePgTarget('postgres://ana:s3cret@db.example/memory?password=again'))).toBe('postgres://ana:***@db.example/memory?password=***');
  });
});
