// Reads a Letta agent file (.af, JSON). The current layout lists `agents` (each with block_ids,
// messages) beside shared `blocks`; the first layout was one agent with its `core_memory` blocks
// inline. Each agent becomes a capability partition: its core memory blocks facts keyed by label
// (limit and description kept in the provenance), archival passages facts when the file holds
// them, and its user and assistant messages conversation turns in one session per agent.
import type { PartitionRef } from '../../../../shared/domain';
import {
  checkedPartition,
  emptyPlan,
  isRecord,
  malformed,
  parseJsonDocument,
  partitionPlan,
  sourceTimestamp,
  text,
  valueProblem,
  type ForeignPlan,
} from './plan';

/** The key of an agent's core memory block: blocks are unique by label within an agent. */
export const blockKey = (label: string): string => `core memory: ${label}`;

export function planLetta(content: string, sourceName: string, org: string): ForeignPlan {
  const plan = emptyPlan('letta', sourceName);
  const file = parseJsonDocument(content, sourceName);
  if (!isRecord(file)) throw malformed(sourceName, '', 'is not a Letta agent file (a JSON object)');
  const agents: Array<{ agent: Record<string, unknown>; where: string }> = [];
  const blocks = new Map<string, Record<string, unknown>>();
  if (Array.isArray(file.agents)) {
    file.agents.forEach((a, i) => {
      if (!isRecord(a)) throw malformed(sourceName, `agents[${i}]`, 'is not an agent object');
      agents.push({ agent: a, where: `agents[${i}]` });
    });
    const list = file.blocks ?? [];
    if (!Array.isArray(list)) throw malformed(sourceName, 'blocks', 'is not a list');
    list.forEach((b, i) => {
      if (!isRecord(b)) throw malformed(sourceName, `blocks[${i}]`, 'is not a block object');
      const id = text(b.id);
      if (id) blocks.set(id, { ...b, where: `blocks[${i}]` });
      else plan.skipped.push({ where: `blocks[${i}]`, reason: 'a block needs an id' });
    });
  } else if (Array.isArray(file.core_memory) || Array.isArray(file.messages)) {
    agents.push({ agent: file, where: 'agent' });
  } else throw malformed(sourceName, '', 'is not a Letta agent file: it has neither "agents" nor an agent\'s "core_memory" and "messages"');
  if (agents.length === 0) throw malformed(sourceName, 'agents', 'lists no agent');

  agents.forEach(({ agent, where }) => {
    const name = text(agent.name) ?? text(agent.id);
    if (!name) {
      plan.skipped.push({ where, reason: 'the agent has neither a name nor an id' });
      return;
    }
    const partition = checkedPartition(plan, { kind: 'capability', org, capability: name.slice(0, 200) }, where);
    if (!partition) return;
    const agentId = text(agent.id) ?? name;
    addBlocks(plan, partition, agent, where, blocks, sourceName);
    addPassages(plan, partition, agent, where);
    addMessages(plan, partition, agent, where, agentId);
  });
  return plan;
}

function addBlocks(
  plan: ForeignPlan,
  partition: PartitionRef,
  agent: Record<string, unknown>,
  where: string,
  shared: Map<string, Record<string, unknown>>,
  sourceName: string,
): void {
  const found: Array<{ block: Record<string, unknown>; where: string }> = [];
  if (Array.isArray(agent.core_memory)) {
    agent.core_memory.forEach((b, i) => {
      if (!isRecord(b)) throw malformed(sourceName, `${where}.core_memory[${i}]`, 'is not a block object');
      found.push({ block: b, where: `${where}.core_memory[${i}]` });
    });
  }
  const ids = Array.isArray(agent.block_ids) ? agent.block_ids : [];
  for (const id of ids) {
    const block = typeof id === 'string' ? shared.get(id) : undefined;
    if (block) found.push({ block, where: String(block.where) });
    else plan.skipped.push({ where: `${where}.block_ids`, reason: `block ${JSON.stringify(id).slice(0, 60)} is not in the file's blocks` });
  }
  const labels = new Set<string>();
  const target = partitionPlan(plan, partition);
  for (const { block, where: at } of found) {
    const label = text(block.label);
    if (!label) {
      plan.skipped.push({ where: at, reason: 'a block needs a label' });
      continue;
    }
    if (labels.has(label)) {
      plan.skipped.push({ where: at, reason: `the agent already has a block labelled "${label.slice(0, 80)}"` });
      continue;
    }
    const problem = typeof block.value === 'string' ? valueProblem(block.value) : 'the value is not text';
    if (problem) {
      plan.skipped.push({ where: at, reason: `block "${label.slice(0, 80)}": ${problem}` });
      continue;
    }
    labels.add(label);
    const value = block.value as string;
    const limit = typeof block.limit === 'number' ? block.limit : null;
    if (limit !== null && value.length > limit)
      plan.notes.push({ where: at, reason: `block "${label.slice(0, 80)}" holds ${value.length} characters, over its limit of ${limit}` });
    const ts = sourceTimestamp(plan, block.updated_at ?? block.created_at, at);
    target.facts.push({
      ref: `block:${text(block.id) ?? label}`,
      key: blockKey(label.slice(0, 400)),
      value,
      ...(ts ? { ts } : {}),
      provenance: {
        sourceId: text(block.id) ?? label,
        where: at,
        extra: {
          kind: 'block',
          label,
          limit,
          ...(text(block.description) ? { description: text(block.description) } : {}),
          ...(typeof block.read_only === 'boolean' ? { readOnly: block.read_only } : {}),
        },
      },
    });
  }
}

function addPassages(plan: ForeignPlan, partition: PartitionRef, agent: Record<string, unknown>, where: string): void {
  const list = agent.passages ?? agent.archival_memory;
  if (list === undefined) return;
  const field = agent.passages !== undefined ? 'passages' : 'archival_memory';
  if (!Array.isArray(list)) {
    plan.skipped.push({ where: `${where}.${field}`, reason: 'is not a list' });
    return;
  }
  const target = partitionPlan(plan, partition);
  const seen = new Set<string>();
  list.forEach((p, i) => {
    const at = `${where}.${field}[${i}]`;
    const body = isRecord(p) ? (p.text ?? p.content) : p;
    const problem = typeof body === 'string' ? valueProblem(body) : 'the passage is not text';
    if (problem) {
      plan.skipped.push({ where: at, reason: problem });
      return;
    }
    if (seen.has(body as string)) {
      plan.skipped.push({ where: at, reason: 'duplicate passage' });
      return;
    }
    seen.add(body as string);
    const id = (isRecord(p) && text(p.id)) || `${i}`;
    const ts = isRecord(p) ? sourceTimestamp(plan, p.created_at, at) : undefined;
    target.facts.push({
      ref: `passage:${id}`,
      key: `archival passage ${id}`,
      value: body as string,
      ...(ts ? { ts } : {}),
      provenance: { sourceId: id, where: at, extra: { kind: 'passage' } },
    });
  });
}

/** The text a message shows: its text parts; for an assistant that spoke through the
 * send_message tool (as Letta agents do), that call's message; for a user message Letta wrapped
 * as JSON ({"type":"user_message","message":...}), the message. */
function messageText(m: Record<string, unknown>): string | undefined {
  const parts = typeof m.content === 'string' ? [m.content] : Array.isArray(m.content) ? m.content : typeof m.text === 'string' ? [m.text] : [];
  let body = parts
    .map((c) => (typeof c === 'string' ? c : isRecord(c) && c.type === 'text' && typeof c.text === 'string' ? c.text : ''))
    .join('\n')
    .trim();
  if (!body && Array.isArray(m.tool_calls)) {
    for (const call of m.tool_calls) {
      const fn = isRecord(call) && isRecord(call.function) ? call.function : undefined;
      if (fn?.name !== 'send_message' || typeof fn.arguments !== 'string') continue;
      try {
        const args = JSON.parse(fn.arguments) as unknown;
        if (isRecord(args) && typeof args.message === 'string') body = args.message;
      } catch {
        // Arguments that are not JSON say nothing we can show.
      }
    }
  }
  if (body.startsWith('{')) {
    try {
      const wrapped = JSON.parse(body) as unknown;
      if (isRecord(wrapped) && typeof wrapped.type === 'string') {
        if (wrapped.type !== 'user_message') return undefined;
        if (typeof wrapped.message === 'string') body = wrapped.message;
      }
    } catch {
      // Plain text that starts with a brace.
    }
  }
  return body || undefined;
}

function addMessages(plan: ForeignPlan, partition: PartitionRef, agent: Record<string, unknown>, where: string, agentId: string): void {
  if (agent.messages === undefined) return;
  if (!Array.isArray(agent.messages)) {
    plan.skipped.push({ where: `${where}.messages`, reason: 'is not a list' });
    return;
  }
  const target = partitionPlan(plan, partition);
  let unspoken = 0;
  agent.messages.forEach((m, i) => {
    const at = `${where}.messages[${i}]`;
    if (!isRecord(m)) {
      plan.skipped.push({ where: at, reason: 'a message is not an object' });
      return;
    }
    const role = text(m.role);
    if (role !== 'user' && role !== 'assistant') {
      unspoken++;
      return;
    }
    const body = messageText(m);
    if (!body) {
      unspoken++;
      return;
    }
    const problem = valueProblem(body);
    if (problem) {
      plan.skipped.push({ where: at, reason: problem });
      return;
    }
    const ts = sourceTimestamp(plan, m.created_at, at);
    target.turns.push({ session: `letta:${agentId}`.slice(0, 200), speaker: role, text: body, ...(ts ? { ts } : {}) });
  });
  if (unspoken > 0)
    plan.notes.push({
      where: `${where}.messages`,
      reason: `${unspoken} system, tool and heartbeat messages (or messages without text) are not conversation turns`,
    });
}
