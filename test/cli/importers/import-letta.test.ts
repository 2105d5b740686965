// `statelens import letta` on Letta agent files. No npm package writes an agent file offline
// (Letta's server does, with a model behind it), so the fixtures here are built from the format's
// published schema: AgentFileSchema in Letta's letta/schemas/agent_file.py (agents with block_ids
// and messages, shared blocks with label / value / limit), and the first single-agent layout with
// inline core_memory; then bad and messy files.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Store } from '../../../electron/engine/store';
import { statelens } from '../../helpers/child';
import { tmpDir } from '../../helpers/tmp';

const agentFile = {
  agents: [
    {
      id: 'agent-0',
      name: 'support-bot',
      agent_type: 'memgpt_v2_agent',
      system: 'You are a helpful support agent.',
      block_ids: ['block-0', 'block-1', 'block-9'],
      tool_ids: ['tool-0'],
      in_context_message_ids: ['message-0', 'message-1'],
      messages: [
        { id: 'message-0', role: 'system', content: [{ type: 'text', text: 'You are a helpful support agent.' }], created_at: '2026-04-01T09:00:00Z' },
        {
          id: 'message-1',
          role: 'user',
          content: [{ type: 'text', text: '{"type": "user_message", "message": "My order 1142 has not arrived", "time": "2026-04-01 09:01:00 AM UTC"}' }],
          created_at: '2026-04-01T09:01:00Z',
        },
        {
          id: 'message-2',
          role: 'assistant',
          content: [],
          tool_calls: [{ id: 'call-1', type: 'function', function: { name: 'send_message', arguments: '{"message": "Sorry! Let me check order 1142."}' } }],
          created_at: '2026-04-01T09:01:05Z',
        },
        { id: 'message-3', role: 'tool', content: [{ type: 'text', text: '{"status": "OK"}' }], tool_call_id: 'call-1', created_at: '2026-04-01T09:01:06Z' },
        { id: 'message-4', role: 'user', content: [{ type: 'text', text: '{"type": "heartbeat", "reason": "continue"}' }], created_at: '2026-04-01T09:01:07Z' },
        { id: 'message-5', role: 'assistant', content: [{ type: 'text', text: 'It ships tomorrow.' }], created_at: '2026-04-01T09:02:00' },
      ],
      passages: [
        { id: 'passage-0', text: 'Customer prefers email follow-ups', created_at: '2026-03-30T10:00:00Z' },
        { id: 'passage-1', text: 'Customer prefers email follow-ups' },
      ],
      files_agents: [],
      group_ids: [],
    },
  ],
  groups: [],
  blocks: [
    {
      id: 'block-0',
      label: 'human',
      value: 'Name: Dana. Order 1142.',
      limit: 5000,
      description: 'What I know about the human',
      read_only: false,
      metadata: {},
    },
    { id: 'block-1', label: 'persona', value: 'I am a patient support agent.', limit: 10, is_template: false },
    { id: 'block-2', label: 'unused', value: 'not attached', limit: 100 },
  ],
  files: [],
  sources: [],
  tools: [{ id: 'tool-0', name: 'send_message' }],
  mcp_servers: [],
  metadata: { revision_id: 'abc123' },
  created_at: '2026-04-01T10:00:00Z',
};

describe('statelens import letta', () => {
  it('imports an agent file: blocks and passages as facts in a capability partition, messages as turns', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'support.af');
    fs.writeFileSync(file, JSON.stringify(agentFile, null, 2));
    const db = path.join(dir, 'letta.db');
    const r = await statelens(['import', 'letta', file, '--db', db, '--org', 'acme']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: 3 facts .* 3 conversation turns.* 2 records left out, in capability:acme\/support-bot/);
    for (const why of [
      /left out: agents\[0\]\.block_ids: block "block-9" is not in the file's blocks/,
      /left out: agents\[0\]\.passages\[1\]: duplicate passage/,
      /note: blocks\[1\]: block "persona" holds 29 characters, over its limit of 10/,
      /note: agents\[0\]\.messages: 3 system, tool and heartbeat messages/,
      /note: agents\[0\]\.messages\[5\]: timestamp "2026-04-01T09:02:00" has no time zone: read as UTC/,
    ])
      expect(r.stderr).toMatch(why);

    const store = Store.open(db, { readonly: true });
    try {
      const handle = store.scope({ kind: 'capability', org: 'acme', capability: 'support-bot' });
      const facts = handle.allFacts();
      expect(facts.map((f) => [f.key, f.value, f.source.type]).sort()).toEqual([
        ['archival passage passage-0', 'Customer prefers email follow-ups', 'letta'],
        ['core memory: human', 'Name: Dana. Order 1142.', 'letta'],
        ['core memory: persona', 'I am a patient support agent.', 'letta'],
      ]);
      expect(facts.find((f) => f.key === 'archival passage passage-0')?.ts).toBe('2026-03-30T10:00:00.000Z');
      const turns = handle
        .workingItems({ sessionId: 'letta:agent-0', includeExpired: true })
        .filter((w) => w.itemType === 'turn' || /turn/.test(w.key))
        .map((w) => w.value);
      expect(turns).toEqual(['My order 1142 has not arrived', 'Sorry! Let me check order 1142.', 'It ships tomorrow.']);
    } finally {
      store.close();
    }
  }, 60_000);

  it('imports the first single-agent layout with inline core memory', async () => {
    const dir = tmpDir();
    const file = path.join(dir, 'v1.af');
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: 'memgpt_agent',
        agent_type: 'memgpt_agent',
        core_memory: [
          { label: 'human', value: 'First name: Chad', limit: 5000 },
          { label: 'persona', value: '', limit: 5000 },
          { label: 'human', value: 'again', limit: 5000 },
        ],
        messages: [{ role: 'user', text: 'hello', created_at: '2025-01-01T00:00:00Z' }],
        tools: [],
      }),
    );
    const db = path.join(dir, 'letta.db');
    const r = await statelens(['import', 'letta', file, '--db', db, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      facts: number;
      turns: number;
      skipped: Array<{ where: string; reason: string }>;
      partitions: Array<{ partition: string }>;
    };
    expect(summary).toMatchObject({ facts: 1, turns: 1, partitions: [{ partition: 'capability:local/memgpt_agent' }] });
    expect(summary.skipped).toEqual([
      { where: 'agent.core_memory[1]', reason: 'block "persona": the value is empty' },
      { where: 'agent.core_memory[2]', reason: 'the agent already has a block labelled "human"' },
    ]);
  }, 60_000);

  it('refuses a file that is not an agent file, naming where, and writes nothing', async () => {
    const dir = tmpDir();
    const db = path.join(dir, 'letta.db');
    for (const [content, message] of [
      ['{\n "agents": [\n  {"id": "agent-0",\n', /line 4: not valid JSON/],
      ['[1, 2]', /is not a Letta agent file \(a JSON object\)/],
      ['{"name": "x"}', /has neither "agents" nor an agent's "core_memory" and "messages"/],
      ['{"agents": [3], "blocks": []}', /agents\[0\]: is not an agent object/],
      ['{"agents": [], "blocks": []}', /agents: lists no agent/],
    ] as const) {
      const file = path.join(dir, 'bad.af');
      fs.writeFileSync(file, content);
      const r = await statelens(['import', 'letta', file, '--db', db]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(r.stderr).toMatch(/nothing was imported.*\[IMPORT_FAILED\]/);
      expect(fs.existsSync(db)).toBe(false);
    }
  }, 60_000);
});
