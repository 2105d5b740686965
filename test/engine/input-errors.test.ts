// Bad input to any engine entry point is told the same way: a typed INVALID_INPUT error that
// says what was being parsed and names each bad field ("(root)" when the value itself is wrong),
// and nothing is written.
import { expect, it } from 'vitest';
import { designationFromFlags } from '../../electron/engine/ingest/designation';
import { thrownBy } from '../helpers/errors';
import { describeStores } from '../helpers/stores';

describeStores('engine input errors', (openStore) => {
  const store = openStore();
  const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
  const [written] = p.writeFacts([{ key: 'budget', value: '$100' }]);
  const counts = (): unknown =>
    store.db.prepare('SELECT (SELECT count(*) FROM facts), (SELECT count(*) FROM working_items), (SELECT count(*) FROM audit_log)').raw().get();
  const before = counts();

  const cases: Array<[string, () => unknown, RegExp]> = [
    ['fact write, bad field', () => p.writeFact({ key: '', value: 'v' }), /^Invalid fact write: key: \S/],
    ['fact write, not an object', () => p.writeFact(null as never), /^Invalid fact write: \(root\): \S/],
    ['working-set item, bad field', () => p.addWorkingItems([{ key: 'k', value: 3 as never }]), /^Invalid working-set item: value: \S/],
    ['working-set item, not an object', () => p.addWorkingItems([null as never]), /^Invalid working-set item: \(root\): \S/],
    ['assembly request', () => p.assemble({ strategy: 'nope' as never }), /^Invalid assembly request: strategy: \S/],
    ['deletion selection', () => p.previewDeletion({ ids: 'x' } as never), /^Invalid deletion selection: (ids|\(root\)): \S/],
    ['deletion', () => p.deleteFacts({ ids: [written?.factId ?? ''] }, { actor: '' }), /^Invalid deletion: actor: \S/],
    ['fact list', () => p.listFacts({ filter: { validity: 'sometimes' } } as never), /^Invalid filter: validity: \S/],
    ['partition flags', () => designationFromFlags({ org: 'acme', user: '' }), /^Invalid partition: user: \S/],
  ];
  for (const [name, run, message] of cases) {
    it(`${name}: INVALID_INPUT naming the field`, () => {
      const e = thrownBy(run);
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.message).toMatch(message);
      expect(counts()).toEqual(before);
    });
  }
});
