import { expect, it } from 'vitest';
import { describeStores } from '../../../test/helpers/stores';
import { listAudit } from './audit';

describeStores('audit log', (openStore) => {
  it('lists supersessions newest first, by partition and by fact, with keyset paging', () => {
    const store = openStore();
    const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    const a = p.writeFact({ key: 'city', value: 'Oslo' });
    const b = p.writeFact({ key: 'city', value: 'actually Bergen' });
    p.writeFact({ key: 'city', value: 'moved to Tromsø' });
    other.writeFact({ key: 'x', value: '1' });
    other.writeFact({ key: 'x', value: '2' });
    const mine = listAudit(store.services, { partitionId: p.id });
    expect(mine).toHaveLength(2);
    expect(mine[0]!.id).toBeGreaterThan(mine[1]!.id);
    expect(mine.every((e) => e.action === 'supersede' && e.partitionId === p.id)).toBe(true);
    const aboutA = listAudit(store.services, { factId: a.factId });
    expect(aboutA.map((e) => e.targetIds)).toEqual([[a.factId, b.factId]]);
    const page2 = listAudit(store.services, { beforeId: mine[0]!.id, limit: 1 });
    expect(page2).toHaveLength(1);
    expect(page2[0]!.id).toBeLessThan(mine[0]!.id);
    expect(JSON.stringify(listAudit(store.services))).not.toContain('Oslo');
    store.close();
  });
});
