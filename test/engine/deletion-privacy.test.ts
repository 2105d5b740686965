// Deleted text is gone from the bytes: the database file, its WAL and the full-text index.
// Facts carry unique marker strings (in values, keys and labels), sit in supersession chains,
// carry dependents and explicit references; random deletions (one id, a list, a filter) must
// leave no marker of a deleted fact anywhere in the files, while every surviving marker stays.
import { describe, expect, it } from 'vitest';
import { sqliteOf } from '../../electron/engine/db/connection';
import { mulberry32 } from '../../electron/engine/demo/prng';
import type { PartitionHandle } from '../../electron/engine/partition-handle';
import { verifyDatabase } from '../../electron/engine/verify/verify';
import { openTmpStore } from '../helpers/tmp';
import { fileBytes, ftsTerms, hasBytes } from './support';

const DELETIONS = Number(process.env.STATELENS_PRIVACY_DELETIONS ?? 200);
const SEED = Number(process.env.STATELENS_PRIVACY_SEED ?? 20260101);

interface Tracked {
  readonly id: string;
  /** Markers only this fact holds. */
  readonly markers: string[];
}

/** What to look for in the bytes: the marker minus its first characters, so a full-text index
 * term stored after a prefix it shares with its neighbour is found too. */
const probe = (marker: string): string => marker.slice(5);

describe('deleted text is gone from the file, the WAL and the full-text index', () => {
  it(`holds over ${DELETIONS} random deletions (seed ${SEED})`, () => {
    const random = mulberry32(SEED);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    let serial = 0;
    const marker = (): string =>
      Array.from({ length: 4 }, () => letters[Math.floor(random() * 26)]).join('') +
      (++serial).toString(36).padStart(4, '0') +
      Math.floor(random() * 36 ** 5)
        .toString(36)
        .padStart(5, '0');

    const store = openTmpStore();
    const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    const other = store.scope({ kind: 'user', org: 'acme', user: 'u2' }, { create: true });
    const live = new Map<string, Tracked>();
    const gone: string[] = [];
    const keys = ['address', 'budget', 'meeting', 'owner', 'plan', 'stock_price', 'deadline'];

    const write = (h: PartitionHandle, track: boolean): void => {
      const markers = [marker()];
      const roll = random();
      const uniqueKey = roll < 0.2;
      const key = uniqueKey ? `key_${markers[0]!.slice(0, 3)}${marker()}` : pick(keys);
      if (uniqueKey) markers.push(key.slice(4));
      const label = random() < 0.3 ? `L-${marker()}` : null;
      if (label) markers.push(label.slice(2));
      const ids = [...live.keys()];
      const input = {
        key,
        value: `${random() < 0.3 ? 'actually ' : ''}value ${markers[0]} ${'detail '.repeat(Math.floor(random() * 40))}end`,
        label,
        ...(track && ids.length > 0 && random() < 0.15 ? { supersedes: pick(ids) } : {}),
        ...(track && ids.length > 2 && random() < 0.3 ? { dependsOn: [pick(ids), pick(ids)] } : {}),
      };
      const r = h.writeFact(input);
      if (track && r.outcome !== 'duplicate') live.set(r.factId, { id: r.factId, markers });
    };
    const keep: string[] = [];
    for (let i = 0; i < 20; i++) {
      const m = marker();
      keep.push(m);
      other.writeFact({ key: 'other', value: `other partition ${m}` });
    }
    for (let i = 0; i < 300; i++) write(p, true);

    const checkGone = (markers: readonly string[], where: string): void => {
      const { db, wal } = fileBytes(store.path);
      const terms = ftsTerms(store.db);
      for (const m of markers) {
        expect(hasBytes(db, probe(m)), `${m} in the database file ${where}`).toBe(false);
        expect(hasBytes(wal, probe(m)), `${m} in the WAL ${where}`).toBe(false);
        expect(
          [...terms].some((t) => t.includes(probe(m))),
          `${m} in the full-text index ${where}`,
        ).toBe(false);
      }
    };
    const checkPresent = (): void => {
      sqliteOf(store.db, 'A WAL checkpoint').pragma('wal_checkpoint(TRUNCATE)');
      const { db } = fileBytes(store.path);
      for (const t of live.values()) for (const m of t.markers) expect(hasBytes(db, m), `surviving ${m}`).toBe(true);
      for (const m of keep) expect(hasBytes(db, m), `other partition ${m}`).toBe(true);
    };
    checkPresent();

    let remedies = { none: 0, zero: 0, rebuild: 0, vacuum: 0 };
    let steps = 0;
    for (let step = 0; step < DELETIONS && live.size > 0; step++, steps++) {
      const ids = [...live.keys()];
      const kind = random();
      let selection: Parameters<PartitionHandle['deleteFacts']>[0];
      let victims: string[];
      if (kind < 0.4) {
        victims = [pick(ids)];
        selection = { ids: victims };
      } else if (kind < 0.75) {
        victims = [...new Set(Array.from({ length: 2 + Math.floor(random() * 4) }, () => pick(ids)))];
        selection = { ids: victims };
      } else {
        const target = live.get(pick(ids))!;
        victims = [target.id];
        selection = { filter: { search: target.markers[0]! } };
      }
      const before = new Set(p.allFacts().map((f) => f.id));
      const result = p.deleteFacts(selection, { actor: 'privacy-test', reason: `step ${step}` });
      const removed = [...before].filter((id) => !p.getFact(id));
      expect(new Set(removed)).toEqual(new Set(victims));
      expect(result.deleted).toBe(victims.length);
      expect(result.scrub?.complete, result.scrub?.detail).toBe(true);
      remedies = { ...remedies, [result.scrub!.remedy]: remedies[result.scrub!.remedy] + 1 };
      const markers = victims.flatMap((id) => live.get(id)?.markers ?? []);
      for (const id of victims) live.delete(id);
      gone.push(...markers);
      checkGone(markers, `after step ${step}`);
      if (step % 2 === 0) write(p, true);
      if (step % 50 === 49) {
        checkGone(gone, `(all deleted so far) after step ${step}`);
        checkPresent();
        expect(verifyDatabase(store).checks.filter((c) => !c.ok)).toEqual([]);
      }
    }
    expect(steps).toBe(DELETIONS);
    checkGone(gone, 'at the end');
    checkPresent();
    expect(verifyDatabase(store).checks.filter((c) => !c.ok)).toEqual([]);
    console.log(`deletion privacy: ${gone.length} markers deleted over ${DELETIONS} deletions; scrub remedies ${JSON.stringify(remedies)}`);
    store.close();
  });

  it('holds for a bulk delete (words leave the full-text index by a merge, not row by row)', () => {
    const random = mulberry32(SEED + 1);
    const store = openTmpStore();
    const p = store.scope({ kind: 'user', org: 'acme', user: 'u1' }, { create: true });
    const markers: Array<{ id: string; marker: string }> = [];
    const results = p.writeFacts(
      Array.from({ length: 900 }, (_, i) => {
        const marker = `${'bcdfghjklmnpqrstvwxz'[i % 20]}${Math.floor(random() * 36 ** 6)
          .toString(36)
          .padStart(6, '0')}q${i.toString(36).padStart(3, '0')}`;
        markers.push({ id: '', marker });
        return {
          key: ['budget', 'owner', 'plan'][i % 3]!,
          value: `note ${marker} ${'words '.repeat(i % 30)}`,
          ...(i > 3 && i % 5 === 0 ? { dependsOn: ['budget'] } : {}),
        };
      }),
    );
    results.forEach((r, i) => (markers[i]!.id = r.factId));
    const victims = markers.filter((_, i) => i % 3 !== 1);
    const phases = new Set<string>();
    const result = p.deleteFacts({ ids: victims.map((v) => v.id) }, { actor: 'bulk', onProgress: (_d, _t, phase) => phases.add(phase) });
    expect(phases.has('index')).toBe(true);
    expect(result.deleted).toBe(victims.length);
    expect(result.scrub?.complete, result.scrub?.detail).toBe(true);
    const { db, wal } = fileBytes(store.path);
    const terms = ftsTerms(store.db);
    for (const v of victims) {
      expect(hasBytes(db, probe(v.marker)), `${v.marker} in the database file`).toBe(false);
      expect(hasBytes(wal, probe(v.marker)), `${v.marker} in the WAL`).toBe(false);
      expect(terms.has(v.marker), `${v.marker} in the full-text index`).toBe(false);
    }
    for (const m of markers.filter((_, i) => i % 3 === 1)) expect(terms.has(m.marker), `surviving ${m.marker} still searchable`).toBe(true);
    expect(p.previewDeletion({ filter: { search: markers[1]!.marker } }).toDelete).toBe(1);
    expect(verifyDatabase(store).checks.filter((c) => !c.ok)).toEqual([]);
    store.close();
  });
});
