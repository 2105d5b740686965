import { describe, expect, it } from 'vitest';
import { parseCommandArgs, type CliCommand } from './command';
import { PG_OPTIONS, pgStoreOf } from './database';

const cmd: CliCommand = { name: 't', summary: '', usage: '', options: { ...PG_OPTIONS, db: { type: 'string' } }, run: async () => 0 };
const args = (...argv: string[]) => parseCommandArgs(cmd, argv);

describe('pgStoreOf', () => {
  it('reads the schema and org from the URL and strips them before the client sees the URL', () => {
    const url = 'postgres://agent:pw@db:5432/memory?sslmode=verify-full&schema=team_b&org=acme';
    expect(pgStoreOf(args(), url, {})).toEqual({
      target: { kind: 'server', url: 'postgres://agent:pw@db:5432/memory?sslmode=verify-full' },
      options: { schema: 'team_b', org: 'acme' },
    });
  });

  it('prefers --schema/--org to the URL, the URL to STATELENS_ORG, and reads * as every org', () => {
    const url = 'postgres://db/memory?org=acme';
    expect(pgStoreOf(args('--org', 'globex', '--schema', 's'), url, { STATELENS_ORG: 'initech' }).options).toEqual({ schema: 's', org: 'globex' });
    expect(pgStoreOf(args(), url, { STATELENS_ORG: 'initech' }).options).toEqual({ schema: 'statelens', org: 'acme' });
    expect(pgStoreOf(args(), 'postgres://db/memory', { STATELENS_ORG: 'initech' }).options).toEqual({ schema: 'statelens', org: 'initech' });
    expect(pgStoreOf(args('--org', '*'), 'postgres://db/memory', {}).options).toEqual({ schema: 'statelens', allOrgs: true });
    expect(pgStoreOf(args(), 'pglite:/tmp/x', {})).toEqual({ target: { kind: 'pglite', dataDir: '/tmp/x' }, options: { schema: 'statelens' } });
  });
});
