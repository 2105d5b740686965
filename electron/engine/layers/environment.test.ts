import { describe, expect, it } from 'vitest';
import { describeStores } from '../../../test/helpers/stores';
import { openTmpStore } from '../../../test/helpers/tmp';
import { LATEST_SIGNALS_SQL } from './environment';

const USER = { kind: 'user', org: 'acme', user: 'ann' } as const;

describeStores('environment history', (openStore) => {
  it('keeps every observation: now is the latest per key, a past instant sees what held then', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.setEnvironment([
      { key: 'office_status', value: 'office open', observedAt: '2026-03-01T09:00:00Z' },
      { key: 'timezone', value: 'Europe/Paris', observedAt: '2026-03-01T09:00:00Z' },
    ]);
    p.setEnvironment([{ key: 'office_status', value: 'office closed for renovation', observedAt: '2026-03-05T09:00:00Z' }]);
    expect(p.environment().map((s) => [s.key, s.value])).toEqual([
      ['office_status', 'office closed for renovation'],
      ['timezone', 'Europe/Paris'],
    ]);
    expect(p.environment('2026-03-02T00:00:00Z').find((s) => s.key === 'office_status')?.value).toBe('office open');
    expect(p.environment('2026-02-01T00:00:00Z')).toEqual([]);
    // The same observation written twice is one row, its value corrected in place.
    p.setEnvironment([{ key: 'timezone', value: 'Europe/Berlin', observedAt: '2026-03-01T09:00:00Z' }]);
    expect(store.db.prepare("SELECT count(*) FROM environment_signals WHERE key = 'timezone'").pluck().get()).toBe(1);
    store.close();
  });

  // state_based and reference assemble with full-text search.
  it('an assembly as of a past time shows the environment of that time, never a later value', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.writeFact({ key: 'meeting', value: 'Team meeting in the office on Friday', ts: '2026-03-01T08:00:00Z' });
    p.setEnvironment([{ key: 'office_status', value: 'office open', observedAt: '2026-03-01T09:00:00Z' }]);
    p.setEnvironment([{ key: 'office_status', value: 'office closed for renovation', observedAt: '2026-03-05T09:00:00Z' }]);
    for (const strategy of ['state_based', 'reference'] as const) {
      const then = p.assemble({ strategy, query: 'Is the office open for the meeting?', budget: 2000, asOf: '2026-03-02T00:00:00Z' });
      expect(then.text, strategy).toContain('office open');
      expect(then.text, strategy).not.toContain('renovation');
      const now = p.assemble({ strategy, query: 'Is the office open for the meeting?', budget: 2000, asOf: '2026-03-06T00:00:00Z' });
      expect(now.text, strategy).toContain('renovation');
    }
    store.close();
  });
});

describeStores('environment fields', (openStore) => {
  it('reads the signals as current time, date in the timezone, timezone, location and external data', () => {
    const store = openStore();
    const p = store.scope(USER, { create: true });
    p.setEnvironment([
      { key: 'timezone', value: 'Asia/Tokyo', observedAt: '2026-03-01T09:00:00Z' },
      { key: 'location', value: 'Tokyo office', observedAt: '2026-03-01T09:00:00Z' },
      { key: 'stock_price', value: { ticker: 'ACME', usd: 95 }, observedAt: '2026-03-01T09:00:00Z' },
    ]);
    // 20:00 UTC on 1 March is already 2 March in Tokyo.
    expect(p.environmentState('2026-03-01T20:00:00Z')).toEqual({
      currentTime: '2026-03-01T20:00:00Z',
      currentDate: '2026-03-02',
      timezone: 'Asia/Tokyo',
      location: 'Tokyo office',
      externalData: { stock_price: '{"ticker":"ACME","usd":95}' },
    });
    // Before anything was observed: UTC, no location, no data.
    expect(p.environmentState('2026-02-01T20:00:00Z')).toEqual({
      currentTime: '2026-02-01T20:00:00Z',
      currentDate: '2026-02-01',
      timezone: 'UTC',
      location: null,
      externalData: {},
    });
    expect(() => p.setEnvironment([{ key: 'timezone', value: 'Mars/Olympus' }])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    for (const strategy of ['state_based', 'reference'] as const) {
      const text = p.assemble({ strategy, query: 'What is the ACME stock price?', budget: 2000, asOf: '2026-03-01T20:00:00Z' }).text;
      for (const line of [
        '- current_time: 2026-03-01T20:00:00.000Z',
        '- current_date: 2026-03-02',
        '- timezone: Asia/Tokyo',
        '- location: Tokyo office',
        '- stock_price: {"ticker":"ACME","usd":95}',
      ])
        expect(text, strategy).toContain(line);
    }
    store.close();
  });
});

describe('the latest signals on SQLite', () => {
  it('walks the (partition, key, observed_at) key in key order and seeks it once per signal: no full scan, no temp b-tree', () => {
    const store = openTmpStore();
    const p = store.scope(USER, { create: true });
    p.setEnvironment([{ key: 'timezone', value: 'UTC', observedAt: '2026-03-01T09:00:00Z' }]);
    for (const at of [null, '2026-03-02T00:00:00.000Z']) {
      const steps = (store.db.prepare(`EXPLAIN QUERY PLAN ${LATEST_SIGNALS_SQL}`).all({ p: p.id, at }) as Array<{ detail: string }>).map((r) => r.detail);
      expect(steps.join(' | ')).not.toMatch(/TEMP B-TREE|SCAN s\b|SCAN l\b|SCAN environment_signals/);
      expect(steps[0]).toMatch(/^SEARCH s USING INDEX sqlite_autoindex_environment_signals_1 \(partition_id=\?\)/);
      expect(steps.at(-1)).toMatch(/SEARCH l USING COVERING INDEX sqlite_autoindex_environment_signals_1 \(partition_id=\? AND key=\? AND observed_at>\?\)/);
    }
    store.close();
  });
});
