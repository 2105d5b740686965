import { expect, it } from 'vitest';
import { describeStores } from '../../../test/helpers/stores';

const USER = { kind: 'user', org: 'acme', user: 'ann' } as const;

describeStores(
  'working set',
  (openStore) => {
    it('a key holds one item per session: writing it again updates it in place', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      const [first] = p.addWorkingItems([{ sessionId: 's1', key: 'objective', value: 'Prepare the Q3 plan' }]);
      const [again] = p.addWorkingItems([{ sessionId: 's1', key: 'objective', value: 'Prepare the Q4 plan', expiresAt: '2030-01-01T00:00:00Z' }]);
      expect(again).toBe(first);
      expect(p.workingItems({ sessionId: 's1' }).map((w) => [w.key, w.value, w.expiresAt])).toEqual([
        ['objective', 'Prepare the Q4 plan', '2030-01-01T00:00:00.000Z'],
      ]);
      // Another session has its own item under the same key.
      p.addWorkingItems([{ sessionId: 's2', key: 'objective', value: 'Hire a designer' }]);
      expect(p.workingItems().length).toBe(2);
      store.close();
    });

    it('items still expire at their expiry time', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.addWorkingItems([
        { sessionId: 's1', key: 'hold', value: 'Hold the 10:00 slot', expiresAt: '2026-01-01T00:00:00.500Z' },
        { sessionId: 's1', key: 'note', value: 'Call the vendor' },
      ]);
      expect(p.workingItems({ sessionId: 's1' }).map((w) => w.key)).toEqual(['note']);
      expect(
        p
          .workingItems({ sessionId: 's1', includeExpired: true })
          .map((w) => w.key)
          .sort(),
      ).toEqual(['hold', 'note']);
      store.close();
    });

    it('ending a session clears its working set and nothing else', () => {
      const store = openStore();
      const p = store.scope(USER, { create: true });
      p.writeFact({ key: 'budget', value: '$120,000' });
      p.addWorkingItems([
        { sessionId: 's1', key: 'turn:0', value: 'hi', itemType: 'turn', speaker: 'user' },
        { sessionId: 's1', key: 'draft', value: 'tentative plan' },
        { sessionId: 's2', key: 'draft', value: 'other session' },
      ]);
      expect(p.endSession('s1')).toEqual({ sessionId: 's1', workingItemsCleared: 2, identityReleased: false });
      expect(p.workingItems({ includeExpired: true }).map((w) => w.sessionId)).toEqual(['s2']);
      expect(p.currentValue('budget')).toBe('$120,000');
      expect(p.endSession('s1').workingItemsCleared).toBe(0);
      expect(() => p.endSession('')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
      store.close();
    });
  },
  undefined,
  { roles: ['agent'] },
);
