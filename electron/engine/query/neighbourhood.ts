// The k-hop dependency neighbourhood of a fact for the graph view (bounded in hops, nodes and
// edges), and the path a needs_review flag took from the changed upstream fact to a dependent.
import { StatelensError } from '../../../shared/errors';
import {
  NeighbourhoodRequest,
  type GraphEdge,
  type GraphNode,
  type Neighbourhood,
  type NeighbourhoodRequestInput,
  type PropagationPath,
} from '../../../shared/inspect';
import type { Fact } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { getFactRow } from '../facts/read';
import { stateAt } from './history';
import { parseInput } from './validate';

export const GRAPH_VALUE_CHARS = 120;
/** Edges returned at most; a denser neighbourhood is marked truncated. */
export const MAX_GRAPH_EDGES = 20_000;
/** Bounds of the propagation-path search (flags travel along at most this many edges). */
const PATH_MAX_DEPTH = 200;
const PATH_MAX_VISITED = 50_000;
/** How far the size of a cut-short neighbourhood is counted (ids only, no rows read). */
export const FULL_SIZE_COUNT_CAP = 100_000;

const DEPENDS_ON = 'SELECT depends_on FROM fact_edges WHERE dependent = ? AND partition_id = ?';
const DEPENDS_ON_LIMITED = `${DEPENDS_ON} LIMIT ?`;
const DEPENDENTS_LIMITED = 'SELECT dependent FROM fact_edges WHERE depends_on = ? AND partition_id = ? LIMIT ?';

/** Both directions: what `id` depends on, then what depends on it; at most `limit` of each
 * (a hub with a million dependents must not be read whole for a 5,000-node graph). */
function neighbours(ctx: PartitionContext, id: string, limit: number): string[] {
  const out = stmt<[string, number, number], string>(ctx.db, DEPENDS_ON_LIMITED).pluck().all(id, ctx.partitionId, limit);
  const into = stmt<[string, number, number], string>(ctx.db, DEPENDENTS_LIMITED).pluck().all(id, ctx.partitionId, limit);
  return out.concat(into);
}

interface NodeRow {
  id: string;
  key: string;
  value: string;
  is_valid: number;
  needs_review: number;
  memory_type: Fact['memoryType'];
  status: Fact['status'];
  review_cause_fact: string | null;
  ts: string;
  valid_to: string | null;
}

export const NODES_SQL = `SELECT f.id, f.key, substr(f.value, 1, ${GRAPH_VALUE_CHARS}) AS value, f.is_valid, f.needs_review, f.memory_type, f.status,
  f.review_cause_fact, f.ts, f.valid_to FROM json_each(?) j CROSS JOIN facts f ON f.id = j.value WHERE f.partition_id = ?`;
/** Outgoing edges of a node list; the caller keeps those whose target is in the set. (An
 * `IN (json_each)` on depends_on here makes SQLite probe every pair: 25M probes at 5,000 nodes.) */
export const EDGES_SQL = `SELECT e.dependent AS "from", e.depends_on AS "to" FROM json_each(?) j
  CROSS JOIN fact_edges e ON e.dependent = j.value WHERE e.partition_id = ?`;

function nodesOf(ctx: PartitionContext, ids: readonly string[], hopOf: ReadonlyMap<string, number>, asOf: string | undefined): GraphNode[] {
  const rows = stmt<[string, number], NodeRow>(ctx.db, NODES_SQL).all(JSON.stringify(ids), ctx.partitionId);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const node: GraphNode = {
      id: r.id,
      key: r.key,
      value: r.value,
      isValid: r.is_valid === 1,
      needsReview: r.needs_review === 1,
      memoryType: r.memory_type,
      status: r.status,
      hop: hopOf.get(id) ?? null,
      reviewCauseFact: r.review_cause_fact,
    };
    if (asOf === undefined) return [node];
    // As it stood then (as the detail's links do): valid, or superseded / not yet written.
    const then = stateAt({ status: r.status, ts: r.ts, validTo: r.valid_to }, asOf);
    const valid = then === 'valid';
    return [{ ...node, asOf: then, isValid: valid, status: r.status === 'proposal' ? 'proposal' : valid ? 'active' : 'superseded' }];
  });
}

/** Shortest path along depends_on edges from a flagged fact back to the fact whose change
 * flagged it, returned cause first. Null when the fact is not flagged. */
export function propagationPath(ctx: PartitionContext, factId: string): PropagationPath | null {
  const row = getFactRow(ctx, factId);
  if (!row) throw new StatelensError('NOT_FOUND', `No fact ${factId} in this partition`, { factId });
  if (row.needs_review !== 1 || !row.review_cause_fact) return null;
  const cause = row.review_cause_fact;
  const causeExists = getFactRow(ctx, cause) !== undefined;
  const result = { factId, causeFactId: cause, causeExists };
  if (!causeExists) return { ...result, path: null };
  const parent = new Map<string, string | null>([[factId, null]]);
  let frontier = [factId];
  const dependsOn = stmt<[string, number], string>(ctx.db, DEPENDS_ON).pluck();
  for (let depth = 0; depth < PATH_MAX_DEPTH && frontier.length > 0 && parent.size < PATH_MAX_VISITED; depth++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const up of dependsOn.all(node, ctx.partitionId)) {
        if (parent.has(up)) continue;
        parent.set(up, node);
        if (up === cause) {
          const path: string[] = [];
          for (let at: string | null | undefined = up; at; at = parent.get(at)) path.push(at);
          return { ...result, path };
        }
        next.push(up);
      }
    }
    frontier = next;
  }
  return { ...result, path: null };
}

export function neighbourhood(ctx: PartitionContext, id: string, requestInput: NeighbourhoodRequestInput = {}): Neighbourhood {
  const request = parseInput(NeighbourhoodRequest, requestInput, 'neighbourhood request');
  const root = getFactRow(ctx, id);
  if (!root) throw new StatelensError('NOT_FOUND', `No fact ${id} in this partition`, { factId: id });
  const hopOf = new Map<string, number>([[id, 0]]);
  let truncated = false;
  let frontier = [id];
  expand: for (let hop = 1; hop <= request.hops && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const node of frontier) {
      // Already-seen neighbours take no room, so ask for enough to fill what is left plus them.
      for (const nb of neighbours(ctx, node, request.maxNodes + hopOf.size + 1)) {
        if (hopOf.has(nb)) continue;
        if (hopOf.size >= request.maxNodes) {
          truncated = true;
          break expand;
        }
        hopOf.set(nb, hop);
        next.push(nb);
      }
    }
    frontier = next;
  }

  const fullSize = truncated ? countWithin(ctx, id, request.hops) : null;
  const propagation = propagationPath(ctx, id);
  const ids = [...hopOf.keys()];
  for (const p of propagation?.path ?? []) if (!hopOf.has(p)) ids.push(p);

  const inSet = new Set(ids);
  const edges: GraphEdge[] = [];
  for (const e of stmt<[string, number], GraphEdge>(ctx.db, EDGES_SQL).iterate(JSON.stringify(ids), ctx.partitionId)) {
    if (!inSet.has(e.to)) continue;
    if (edges.length >= MAX_GRAPH_EDGES) {
      truncated = true;
      break;
    }
    edges.push(e);
  }
  // The propagation path's edges are always drawn, even when the edge cap cut others.
  if (propagation?.path && edges.length >= MAX_GRAPH_EDGES) {
    const have = new Set(edges.map((e) => `${e.from}\u0000${e.to}`));
    for (let i = 1; i < propagation.path.length; i++) {
      const e = { from: propagation.path[i] as string, to: propagation.path[i - 1] as string };
      if (!have.has(`${e.from}\u0000${e.to}`)) edges.push(e);
    }
  }
  return {
    rootId: id,
    hops: request.hops,
    nodes: nodesOf(ctx, ids, hopOf, request.asOf),
    edges,
    truncated,
    fullSize: fullSize ?? (truncated ? { nodes: ids.length, atLeast: true } : null),
    propagation,
  };
}

/** How many facts lie within `hops` of `id` (the root included), counted up to
 * FULL_SIZE_COUNT_CAP: a graph cut short says how big the whole would be. */
function countWithin(ctx: PartitionContext, id: string, hops: number): { nodes: number; atLeast: boolean } {
  const seen = new Set([id]);
  let frontier = [id];
  for (let hop = 1; hop <= hops && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const node of frontier) {
      for (const nb of neighbours(ctx, node, FULL_SIZE_COUNT_CAP)) {
        if (seen.has(nb)) continue;
        if (seen.size >= FULL_SIZE_COUNT_CAP) return { nodes: seen.size, atLeast: true };
        seen.add(nb);
        next.push(nb);
      }
    }
    frontier = next;
  }
  return { nodes: seen.size, atLeast: false };
}
