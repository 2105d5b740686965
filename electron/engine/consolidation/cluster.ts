// Clustering of capability memories without a language model: memories group when they share an
// entity (or key stem), the same typed slots, and content words above a Jaccard threshold; a
// cluster's pattern is the words all of its members share, stated deterministically.
import { stemSet } from '../assembly/terms';
import { slotKindsOf } from '../facts/entity';
import { wordsOf } from '../facts/words';

export interface ClusterParams {
  /** The fewest members a cluster needs to become a higher abstraction. */
  readonly minCluster: number;
  /** Jaccard similarity of content-word stems every pair in a cluster must reach (0..1). */
  readonly similarity: number;
}

export const DEFAULT_CLUSTER_PARAMS: ClusterParams = { minCluster: 3, similarity: 0.4 };

/** What clustering reads of a memory. */
export interface ClusterInput {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  readonly entityKey: string | null;
}

export interface Cluster {
  /** The shared entity or key stem the members are grouped under. */
  readonly stem: string;
  /** Member ids, in input order. */
  readonly ids: readonly string[];
  /** Content-word stems every member shares, sorted. */
  readonly shared: readonly string[];
  /** The typed slots every member carries, sorted. */
  readonly slots: readonly string[];
}

/** Words of the texts consolidation writes itself, left out so abstractions are compared by
 * what they abstract, not by the sentence around it. */
const OWN_WORDS = new Set(['pattern', 'common', 'event', 'heuristic', 'strategy', 'slot', 'shared']);

/** Content-word stems of a memory's value (stop words and digits dropped). */
export function contentStems(value: string): Set<string> {
  const out = new Set<string>();
  for (const s of stemSet(value)) if (!/^\d/.test(s) && !OWN_WORDS.has(s)) out.add(s);
  return out;
}

/** The entity a memory is grouped under: its entity key, else the first word of its key. */
export function groupStem(m: ClusterInput): string {
  return m.entityKey ?? wordsOf(m.key)[0] ?? m.key;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both);
}

interface Member {
  readonly m: ClusterInput;
  readonly stems: Set<string>;
  readonly slots: string;
}

/** Complete-link clusters, greedy in input order (deterministic): a memory joins the first
 * cluster of its group whose every member it resembles, else starts one. Returns only
 * clusters of at least `minCluster` members, in order of their first member. */
export function clusterMemories(memories: readonly ClusterInput[], params: ClusterParams = DEFAULT_CLUSTER_PARAMS): Cluster[] {
  const groups = new Map<string, Member[][]>();
  for (const m of memories) {
    const member: Member = { m, stems: contentStems(m.value), slots: slotKindsOf(m.value).join(',') };
    if (member.stems.size === 0) continue;
    const stem = groupStem(m);
    const clusters = groups.get(stem) ?? [];
    groups.set(stem, clusters);
    const home = clusters.find((c) => c.every((o) => o.slots === member.slots && jaccard(o.stems, member.stems) >= params.similarity));
    if (home) home.push(member);
    else clusters.push([member]);
  }
  const out: Cluster[] = [];
  for (const [stem, clusters] of groups) {
    for (const c of clusters) {
      const [first] = c;
      if (!first || c.length < params.minCluster) continue;
      const shared = [...first.stems].filter((s) => c.every((o) => o.stems.has(s))).sort();
      out.push({ stem, ids: c.map((o) => o.m.id), shared, slots: first.slots === '' ? [] : first.slots.split(',') });
    }
  }
  return out;
}

/** The abstraction's text: the shared words, the slots and how many memories it rests on. */
export function patternText(cluster: Cluster, from: 'event' | 'heuristic'): string {
  const slots = cluster.slots.length > 0 ? ` (slots: ${cluster.slots.join(', ')})` : '';
  return `Pattern common to ${cluster.ids.length} ${from}s about ${cluster.stem}: ${cluster.shared.join(', ')}${slots}`;
}
