import { describe, expect, it } from 'vitest';
import { EXPORT_FORMATS, exportFileName } from './snapshot';

describe('exportFileName', () => {
  const base = { database: 'inspector', filtered: false, asOf: null } as const;

  it('never gives two formats the same name (StateBench and JSON are both JSON)', () => {
    const names = EXPORT_FORMATS.map((format) => exportFileName({ ...base, partition: null, format }));
    expect(new Set(names).size).toBe(names.length);
    expect(exportFileName({ ...base, partition: null, format: 'json' })).toBe('inspector-all-partitions.snapshot.json');
    expect(exportFileName({ ...base, partition: null, format: 'statebench' })).toBe('inspector-all-partitions.statebench.json');
  });

  it("is named after the partition's people or capability, and says filtered and as-of", () => {
    expect(exportFileName({ ...base, partition: { kind: 'user', org: 'acme', user: 'ana' }, format: 'csv' })).toBe('inspector-acme-ana.csv');
    expect(exportFileName({ ...base, partition: { kind: 'capability', org: 'acme', capability: 'support-bot' }, format: 'markdown' })).toBe(
      'inspector-acme-support-bot-capability.md',
    );
    expect(exportFileName({ ...base, partition: { kind: 'organizational', org: 'acme' }, format: 'sqlite' })).toBe('inspector-acme-organisation.db');
    expect(
      exportFileName({
        database: 'inspector',
        partition: { kind: 'user', org: 'acme', user: 'ana' },
        filtered: true,
        asOf: '2025-02-01T00:00:00.000Z',
        format: 'csv',
      }),
    ).toBe('inspector-acme-ana-filtered-as-of-20250201T000000Z.csv');
  });

  it('keeps only characters safe in a file name', () => {
    expect(exportFileName({ ...base, database: 'my db/../x', partition: { kind: 'user', org: 'a co', user: 'é' }, format: 'ndjson' })).toMatch(
      /^[A-Za-z0-9._-]+$/,
    );
  });
});
