import { describe, expect, it } from 'vitest';
import { choosePgBenchTarget, databaseUrl, notMeasured } from './postgres';

describe('the PostgreSQL bench target', () => {
  it("prefers the bench's own server URL, then the test server's, else PGlite with the reason", () => {
    expect(choosePgBenchTarget({ STATELENS_BENCH_PG_URL: 'postgres://a@h1/db', STATELENS_TEST_PG_URL: 'postgres://b@h2/db' })).toEqual({
      kind: 'server',
      url: 'postgres://a@h1/db',
      from: 'STATELENS_BENCH_PG_URL',
    });
    expect(choosePgBenchTarget({ STATELENS_BENCH_PG_URL: ' ', STATELENS_TEST_PG_URL: 'postgres://b@h2/db' })).toEqual({
      kind: 'server',
      url: 'postgres://b@h2/db',
      from: 'STATELENS_TEST_PG_URL',
    });
    expect(choosePgBenchTarget({})).toMatchObject({ kind: 'pglite', why: expect.stringContaining('STATELENS_TEST_PG_URL') });
    // A server the command names comes first.
    expect(choosePgBenchTarget({ STATELENS_BENCH_PG_URL: 'postgres://a@h1/db' }, 'postgres://c@h3/db')).toEqual({
      kind: 'server',
      url: 'postgres://c@h3/db',
      from: '--db',
    });
  });

  it('names the scratch database on the same server, keeping user, port and options', () => {
    expect(databaseUrl('postgres://postgres:pw@127.0.0.1:5432/test?sslmode=disable', 's15_bench_1')).toBe(
      'postgres://postgres:pw@127.0.0.1:5432/s15_bench_1?sslmode=disable',
    );
  });

  it('reports a figure it could not measure with the reason and no number', () => {
    const row = notMeasured('assembly', 'ms', 'NOT_SUPPORTED');
    expect(row.value).toBeNaN();
    expect(row.baseline).toBe('not measured: NOT_SUPPORTED');
  });
});
