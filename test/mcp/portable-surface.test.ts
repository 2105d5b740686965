// The MCP surface as every agent stack reads it, through the SDK's client and the real
// `statelens mcp` child: each tool's input schema is in the portable subset (the rules are in
// electron/mcp/portable-schema.ts), declares its annotations and an output schema, and every result
// validates against that schema; the server still refuses what it refused, naming the field, and
// reads a null the way strict-mode clients mean it (left out). The surface is the same on every
// store, so this runs on a SQLite file; the store suites beside it run the tools on each store.
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portabilityProblems } from '../../electron/mcp/portable-schema';
import { dbTarget } from '../helpers/db-targets';
import { connectMcp, type McpSession } from './client';

const P = 'user:acme/alice';

/** One successful call of every tool, in an order where each finds what it needs. */
const EVERY_TOOL: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  [
    'set_identity',
    {
      partition: P,
      session_id: 's1',
      identity: { userName: 'Alice', userId: 'alice', authority: 'manager', department: 'Ops', organization: 'Acme', permissions: [] },
    },
  ],
  ['record_facts', { partition: P, facts: [{ key: 'office', value: 'Hamburg', source: { type: 'user', identity: 'alice' } }] }],
  ['record_facts', { partition: P, facts: [{ key: 'office', value: 'Actually the office moved to Berlin', supersedes: 'office' }] }],
  ['record_turns', { partition: P, session_id: 's1', turns: [{ speaker: 'user', text: 'The standup is on Monday at 9am' }] }],
  [
    'set_environment',
    {
      partition: P,
      signals: [
        { key: 'timezone', value: 'Europe/Berlin' },
        { key: 'load', value_json: '{"cpu":0.4}' },
      ],
    },
  ],
  ['set_environment_providers', { partition: P, providers: [{ kind: 'clock', timezone: 'Europe/Berlin' }] }],
  [
    'update_agent_state',
    { partition: P, session_id: 's1', update: { expectations: [{ id: 'x1', action: 'create', expected_outcome: 'two', expected_count: 2 }] } },
  ],
  ['get_agent_state', { partition: P, session_id: 's1' }],
  ['verify_expectation', { partition: P, session_id: 's1', expectation_id: 'x1', tool_result: { id: 'call-1', count: 2 } }],
  ['put_context', { partition: P, session_id: 'memory', body: '## Facts\n- office: Berlin' }],
  ['get_context', { partition: P, session_id: 'memory' }],
  ['assemble_context', { partition: P, strategy: 'state_based', query: 'Where is the office?', session_id: 's1', include_provenance: true }],
  ['search_facts', { partition: P, query: 'office', filter: { validity: 'all' } }],
  ['await_consistency', { partition: P }],
  ['end_session', { partition: P, session_id: 's1' }],
];

describe('the portable MCP surface (SDK client over stdio)', () => {
  let mcp: McpSession;
  let tools: Tool[];

  beforeAll(async () => {
    mcp = await connectMcp(dbTarget('sqlite', 'portable').db, 'statelens-portable-test');
    tools = (await mcp.client.listTools()).tools;
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
  });

  it('every input schema is in the portable subset', () => {
    expect(tools).toHaveLength(14);
    for (const t of tools) expect(portabilityProblems(t.inputSchema), t.name).toEqual([]);
    const facts = tools.find((t) => t.name === 'record_facts')?.inputSchema.properties ?? {};
    expect(facts.partition).toMatchObject({ type: 'string', description: expect.stringContaining('user:ORG/USER') as unknown });
    const fact = (facts.facts as { items: { properties: Record<string, unknown> } }).items.properties;
    expect(fact.value).toMatchObject({ type: 'string', description: expect.stringContaining('JSON text') as unknown });
  });

  it('every tool has a title, the four annotations and an object output schema', () => {
    for (const t of tools) {
      expect(t.title, t.name).toBeTruthy();
      expect(t.annotations, t.name).toMatchObject({
        title: t.title,
        readOnlyHint: expect.any(Boolean) as unknown,
        destructiveHint: expect.any(Boolean) as unknown,
        idempotentHint: expect.any(Boolean) as unknown,
        openWorldHint: false,
      });
      expect(t.outputSchema?.type, t.name).toBe('object');
    }
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(['await_consistency', 'get_agent_state', 'get_context', 'search_facts']);
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive.sort()).toEqual(['end_session', 'record_turns', 'update_agent_state']);
  });

  it('every result validates against its tool output schema', async () => {
    const validator = new AjvJsonSchemaValidator();
    const called = new Set<string>();
    for (const [name, args] of EVERY_TOOL) {
      const tool = tools.find((t) => t.name === name);
      const result = await mcp.client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
      const check = validator.getValidator(tool?.outputSchema ?? {})(result.structuredContent);
      expect(check.valid ? '' : check.errorMessage, name).toBe('');
      // The text content is the same result, for clients that read text only.
      expect(JSON.parse((result.content as Array<{ text: string }>)[0]?.text ?? '')).toEqual(result.structuredContent);
      called.add(name);
    }
    expect([...called].sort()).toEqual(tools.map((t) => t.name).sort());
    // The output schemas are strict: an extra field would fail them.
    const search = tools.find((t) => t.name === 'search_facts');
    expect(validator.getValidator(search?.outputSchema ?? {})({ partitionId: 1, partition: 'x', facts: [], total: null, extra: 1 }).valid).toBe(false);
  });

  it('an error result has our error shape in its text and no structured content', async () => {
    const r = await mcp.client.callTool({ name: 'search_facts', arguments: { partition: 'nobody here' } });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    expect(JSON.parse((r.content as Array<{ text: string }>)[0]?.text ?? '')).toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('a null is read as left out, as strict-mode clients send it', async () => {
    const r = await mcp.ok('record_facts', {
      partition: P,
      actor: null,
      facts: [{ key: 'desk', value: '4.12', label: null, supersedes: null, source: { type: 'user', identity: null, authority: null }, scope: null }],
    });
    expect((r.results as Array<{ outcome: string }>)[0]?.outcome).toBe('created');
    const ctx = await mcp.ok('assemble_context', { partition: P, strategy: null, budget: null, task_id: null, as_of: null, tokenizer: null, preview: true });
    expect(ctx.strategy).toBe('balanced');
  });

  it('what the schema leaves out is refused with INVALID_INPUT naming the field, and nothing is written', async () => {
    const cases: ReadonlyArray<readonly [string, Record<string, unknown>, string, RegExp]> = [
      ['record_facts', { partition: { kind: 'user', org: 'acme', user: 'alice' }, facts: [{ key: 'k', value: 'v' }] }, 'partition', /a partition is text/],
      ['record_facts', { partition: 'user:acme', facts: [{ key: 'k', value: 'v' }] }, 'partition', /user:ORG\/USER/],
      ['record_facts', { partition: P, facts: [{ key: 'k', value: { city: 'Hamburg' } }] }, 'facts.0.value', /expected string/],
      ['record_facts', { partition: P, facts: [{ key: 'k', value: 'v', source: 'CFO' }] }, 'facts.0.source', /expected object/],
      ['record_facts', { partition: P, facts: [{ key: 'k', value: 'x'.repeat(100_001) }] }, 'facts.0.value', /100000/],
      ['set_environment', { partition: P, signals: [{ key: 'a', value: 'x', value_json: '1' }] }, 'signals.0.value', /exactly one of value/],
      ['set_environment', { partition: P, signals: [{ key: 'a' }] }, 'signals.0.value', /exactly one of value/],
      ['set_environment', { partition: P, signals: [{ key: 'a', value_json: '{nope' }] }, 'signals.0.value_json', /not JSON/],
      ['set_environment', { partition: P, signals: [{ key: 'a', value: ['storm'] }] }, 'signals.0.value', /expected string/],
      ['update_agent_state', { partition: P, session_id: 's9', update: { items: [{ op: 'remove' }] } }, 'update.items.0.id', /expected string/],
      [
        'update_agent_state',
        { partition: P, session_id: 's9', update: { items: [{ op: 'remove', id: 'i1', item: { id: 'i1', kind: 'task', title: 't', status: 'active' } }] } },
        'update.items.0',
        /item/,
      ],
      ['update_agent_state', { partition: P, session_id: 's9', update: { assumptions: [], agent_state_updates: {} } }, 'update', /not both/],
      ['update_agent_state', { partition: P, session_id: 's9', update: { mood: 'good' } }, 'update', /mood/],
    ];
    for (const [name, args, field, message] of cases) {
      const e = await mcp.fails(name, args);
      expect(e.code, JSON.stringify(args).slice(0, 200)).toBe('INVALID_INPUT');
      expect(e.details?.field, JSON.stringify(args).slice(0, 200)).toBe(field);
      expect(e.message, JSON.stringify(args).slice(0, 200)).toMatch(message);
    }
    const keys = ((await mcp.ok('search_facts', { partition: P, filter: { validity: 'all' } })).facts as Array<{ key: string }>).map((f) => f.key);
    expect(keys).not.toContain('k');
    expect(keys).not.toContain('a');
    expect((await mcp.ok('get_agent_state', { partition: P, session_id: 's9' })).state).toBeNull();
  });

  it('the item ops and the summarizer shape still apply through the flattened delta', async () => {
    await mcp.ok('update_agent_state', {
      partition: P,
      session_id: 's2',
      update: { items: [{ op: 'add', item: { id: 'i1', kind: 'task', title: 'Book the room', status: 'active' } }] },
    });
    await mcp.ok('update_agent_state', { partition: P, session_id: 's2', update: { items: [{ op: 'update', id: 'i1', patch: { status: 'resolved' } }] } });
    const summarized = await mcp.ok('update_agent_state', {
      partition: P,
      session_id: 's2',
      update: {
        agent_state_item_updates: [{ op: 'add', item: { id: 'i2', kind: 'note', title: 'Prefers mornings', status: 'active' } }],
        agent_state_updates: { assumptions: [{ id: 'a1', hypothesis: 'Alice works in Berlin', confidence: 0.8 }] },
      },
    });
    const state = summarized.state as { items: Array<{ id: string; status: string }>; assumptions: unknown[]; lastSummarizedAt?: string };
    expect(state.items.map((i) => [i.id, i.status])).toEqual([
      ['i1', 'resolved'],
      ['i2', 'active'],
    ]);
    expect(state.assumptions).toHaveLength(1);
    expect(state.lastSummarizedAt).toBeTruthy();
    const removed = await mcp.ok('update_agent_state', { partition: P, session_id: 's2', update: { items: [{ op: 'remove', id: 'i1' }] } });
    expect((removed.state as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual(['i2']);
  });

  it('structured environment values arrive as JSON, text values as text', async () => {
    const r = await mcp.ok('set_environment', {
      partition: 'user:acme/env',
      signals: [
        { key: 'location', value: 'Hamburg office' },
        { key: 'alerts', value_json: '["storm", "flood"]' },
      ],
    });
    expect(r.state).toMatchObject({ location: 'Hamburg office' });
    const alerts = (r.environment as Array<{ key: string; value: string }>).find((s) => s.key === 'alerts');
    expect(JSON.parse(alerts?.value ?? 'null')).toEqual(['storm', 'flood']);
  });
});
