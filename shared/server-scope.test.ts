import { describe, expect, it } from 'vitest';
import { databaseTitle, serverScope } from './contract';

describe('serverScope', () => {
  it('names the schema and the org a server session acts for; no org is left out, not shown empty', () => {
    expect(serverScope({ schema: 'statelens', org: 'acme' })).toBe('schema statelens · org acme');
    expect(serverScope({ schema: 'statelens', org: '' })).toBe('schema statelens');
    expect(serverScope({ schema: 'copy', org: '*' })).toBe('schema copy · every org');
  });

  it('titles a server window by database, schema and org', () => {
    const server = { url: 'postgres://ana@db.example:5432/memory', schema: 'statelens', org: '' };
    const db = { path: server.url, name: 'memory on db.example:5432', readonly: false, sizeBytes: 0, schemaVersion: 3, isDefault: false, server };
    expect(databaseTitle(db)).toBe('memory on db.example:5432 · schema statelens — Statelens');
  });
});
