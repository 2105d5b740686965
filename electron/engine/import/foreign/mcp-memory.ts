// Reads the knowledge-graph JSONL of the reference MCP memory server: one JSON object a line,
// {"type":"entity","name","entityType","observations":[...]} or {"type":"relation","from","to",
// "relationType"}. Each entity becomes a fact ("NAME is a TYPE"), each observation a fact keyed
// by its entity that depends on it, each relation a fact that depends on both entities.
import type { PartitionRef } from '../../../../shared/domain';
import { observationHash } from './mcp-memory-pending';
import { emptyPlan, isRecord, malformed, noteUnknownFields, partitionPlan, text, valueProblem, type ForeignFact, type ForeignPlan } from './plan';

/** The partition a memory file goes to when none is named: the server keeps one graph per file. */
export const MCP_MEMORY_DEFAULT_USER = 'mcp-memory';
/** Longest entity name kept: it is part of every key of the entity's facts. */
const MAX_NAME = 400;

const ENTITY_FIELDS = ['type', 'name', 'entityType', 'observations'];
const RELATION_FIELDS = ['type', 'from', 'to', 'relationType'];

/** The label of an entity's fact, which observations and relations depend on. */
export const entityRef = (name: string): string => `entity:${name}`;
/** The label of the observation at `index` (0-based, as the file lists it) of an entity. */
export const observationRef = (name: string, index: number): string => `entity:${name}#${index}`;
export const relationRef = (from: string, relationType: string, to: string): string => `relation:${from}|${relationType}|${to}`;

interface EntityRecord {
  readonly line: number;
  readonly name: string;
  readonly entityType: string;
  readonly observations: Array<{ text: string; index: number }>;
}

export function readMcpMemory(content: string, sourceName: string, partition: PartitionRef): ForeignPlan {
  const plan = emptyPlan('mcp-memory', sourceName);
  const entities = new Map<string, EntityRecord>();
  const relations: Array<{ line: number; from: string; to: string; relationType: string }> = [];
  const relationSeen = new Set<string>();
  const lines = content.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] ?? '').replace(/\r$/, '');
    if (raw.trim() === '') continue;
    const line = i + 1;
    const where = `line ${line}`;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (e) {
      throw malformed(sourceName, where, `not valid JSON (${e instanceof Error ? e.message : String(e)})`, { line });
    }
    if (!isRecord(json)) throw malformed(sourceName, where, 'not a JSON object (the memory file holds one entity or relation object a line)', { line });
    if (json.type === 'entity') readEntity(plan, json, line, entities);
    else if (json.type === 'relation') {
      noteUnknownFields(plan, json, RELATION_FIELDS, where);
      const from = text(json.from);
      const to = text(json.to);
      const relationType = text(json.relationType);
      if (!from || !to || !relationType) {
        plan.skipped.push({ where, reason: 'a relation needs from, to and relationType as text' });
        continue;
      }
      const ref = relationRef(from, relationType, to);
      if (relationSeen.has(ref)) {
        plan.skipped.push({ where, reason: `duplicate relation ${from} ${relationType} ${to}` });
        continue;
      }
      if (ref.length > 480) {
        plan.skipped.push({ where, reason: 'the relation names are too long to key a fact' });
        continue;
      }
      relationSeen.add(ref);
      relations.push({ line, from, to, relationType });
    } else plan.skipped.push({ where, reason: `unknown record type ${JSON.stringify(json.type ?? null).slice(0, 60)} (expected entity or relation)` });
  }

  const target = partitionPlan(plan, partition);
  for (const e of entities.values()) target.facts.push(...entityFacts(e));
  for (const r of relations) {
    const deps = [r.from, r.to].filter((n) => entities.has(n));
    for (const missing of [r.from, r.to].filter((n) => !entities.has(n)))
      plan.notes.push({ where: `line ${r.line}`, reason: `the relation names entity "${missing.slice(0, 80)}", which the file does not hold` });
    target.facts.push({
      ref: relationRef(r.from, r.relationType, r.to),
      key: `${r.from} ${r.relationType} ${r.to}`,
      value: `${r.from} ${r.relationType} ${r.to}`,
      dependsOn: [...new Set(deps)].map(entityRef),
      provenance: {
        sourceId: `${r.from} ${r.relationType} ${r.to}`,
        where: `line ${r.line}`,
        extra: { kind: 'relation', from: r.from, to: r.to, relationType: r.relationType },
      },
    });
  }
  if (target.facts.length === 0) plan.partitions.length = 0;
  return plan;
}

function readEntity(plan: ForeignPlan, json: Record<string, unknown>, line: number, entities: Map<string, EntityRecord>): void {
  const where = `line ${line}`;
  noteUnknownFields(plan, json, ENTITY_FIELDS, where);
  const name = text(json.name);
  if (!name) {
    plan.skipped.push({ where, reason: 'an entity needs a name' });
    return;
  }
  if (name.length > MAX_NAME) {
    plan.skipped.push({ where, reason: `the entity name is ${name.length} characters, over ${MAX_NAME}` });
    return;
  }
  let entityType = text(json.entityType);
  if (!entityType) {
    plan.notes.push({ where, reason: `entity "${name.slice(0, 80)}" has no entityType: kept as "unknown"` });
    entityType = 'unknown';
  }
  let entity = entities.get(name);
  if (entity) plan.notes.push({ where, reason: `entity "${name.slice(0, 80)}" repeats line ${entity.line}: its observations are merged` });
  else {
    entity = { line, name, entityType: entityType.slice(0, 200), observations: [] };
    entities.set(name, entity);
  }
  const observations = json.observations ?? [];
  if (!Array.isArray(observations)) {
    plan.skipped.push({ where, reason: `the observations of "${name.slice(0, 80)}" are not a list` });
    return;
  }
  const seen = new Set(entity.observations.map((o) => o.text));
  observations.forEach((o, index) => {
    const at = `${where} observation ${index + 1}`;
    if (typeof o !== 'string') {
      plan.skipped.push({ where: at, reason: 'an observation is not text' });
      return;
    }
    const problem = valueProblem(o);
    if (problem) {
      plan.skipped.push({ where: at, reason: problem });
      return;
    }
    if (seen.has(o)) {
      plan.skipped.push({ where: at, reason: `duplicate observation of "${name.slice(0, 80)}"` });
      return;
    }
    seen.add(o);
    (entity as EntityRecord).observations.push({ text: o, index: (entity as EntityRecord).observations.length });
  });
}

function entityFacts(e: EntityRecord): ForeignFact[] {
  const extra = { kind: 'entity', entityType: e.entityType };
  const facts: ForeignFact[] = [
    {
      ref: entityRef(e.name),
      key: e.name,
      value: `${e.name} is a ${e.entityType}`,
      provenance: { sourceId: e.name, where: `line ${e.line}`, extra },
    },
  ];
  for (const o of e.observations) {
    facts.push({
      ref: observationRef(e.name, o.index),
      key: `${e.name} · observation ${o.index + 1}`,
      value: o.text,
      dependsOn: [entityRef(e.name)],
      provenance: {
        sourceId: e.name,
        where: `line ${e.line}`,
        extra: { kind: 'observation', entityType: e.entityType, observation: o.index, textHash: observationHash(o.text) },
      },
    });
  }
  return facts;
}
