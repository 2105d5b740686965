// Statelens from the agent stacks people build on, each through the README's own snippet (the
// files in ./snippets, which the README embeds verbatim): LangChain.js's MCP adapter and the
// Vercel AI SDK's MCP client start the real `statelens mcp` as a child over stdio (`npx statelens`),
// load every tool and make an agent's round trip — record a fact, record the one that supersedes
// it, assemble a state_based context, search. No model is called: LangChain's tools are invoked
// with tool calls as an agent's model would emit them (its client-side schema check included),
// and the AI SDK's agent loop runs on its mock model, which emits the same calls.
import fs from 'node:fs';
import path from 'node:path';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbTarget } from '../helpers/db-targets';
import { repoRoot } from '../helpers/paths';
import { TOOLS } from '../../electron/mcp/tools';
import { statelensTools as aiSdkTools } from './snippets/ai-sdk';
import { statelensTools as langchainTools } from './snippets/langchain';

const P = 'user:acme/alice';
// The server's own tool table (mcp.test.ts pins the names themselves).
const TOOL_NAMES = TOOLS.map((t) => t.name).sort();

/** The agent's round trip, as the tool calls a model would make. */
const ROUND_TRIP: ReadonlyArray<readonly [string, Record<string, unknown>]> = [
  ['record_facts', { partition: P, facts: [{ key: 'office', value: 'Hamburg' }] }],
  ['record_facts', { partition: P, facts: [{ key: 'office', value: 'Berlin', supersedes: 'office', reason: 'Alice moved' }] }],
  ['assemble_context', { partition: P, strategy: 'state_based', query: 'Where is the office?' }],
  ['search_facts', { partition: P, query: 'office' }],
];

type Results = Record<string, unknown>[];

/** What the round trip's four results must say, whichever stack carried them. */
function expectRoundTrip([first, second, context, found]: Results): void {
  const created = (first?.results as Array<{ outcome: string; factId: string }>)[0];
  expect(created?.outcome).toBe('created');
  const superseding = (second?.results as Array<{ outcome: string; supersededId: string }>)[0];
  expect(superseding).toMatchObject({ outcome: 'superseded', supersededId: created?.factId });
  expect(context?.strategy).toBe('state_based');
  expect(context?.text).toContain('Berlin');
  expect(context?.text).not.toContain('Hamburg');
  expect((found?.facts as Array<{ value: string }>).map((f) => f.value)).toEqual(['Berlin']);
}

describe('LangChain.js (@langchain/mcp-adapters) through the README snippet', () => {
  let connected: Awaited<ReturnType<typeof langchainTools>>;

  beforeAll(async () => {
    connected = await langchainTools(dbTarget('sqlite', 'langchain').db);
  }, 180_000);

  afterAll(async () => {
    await connected?.client.close();
  });

  const tool = (name: string) => {
    const t = connected.tools.find((x) => x.name === name);
    if (!t) throw new Error(`LangChain did not load ${name}`);
    return t;
  };

  /** A tool call as an agent's model emits it; the adapter checks the arguments against the
   * schema it converted, then calls the server. Returns the result's structured content. */
  async function call(name: string, args: Record<string, unknown>, id: string): Promise<Record<string, unknown>> {
    const message = (await tool(name).invoke({ type: 'tool_call', id, name, args })) as { status?: string; artifact?: unknown; content: unknown };
    expect(message.status, `${name}: ${JSON.stringify(message.content).slice(0, 400)}`).toBe('success');
    const structured = (message.artifact as Array<{ type: string; data: Record<string, unknown> }>).find((a) => a.type === 'mcp_structured_content');
    if (!structured) throw new Error(`${name}: no structured content`);
    return structured.data;
  }

  it('loads every tool, with its annotations', () => {
    expect(connected.tools.map((t) => t.name).sort()).toEqual(TOOL_NAMES);
    const annotations = (tool('search_facts').metadata as { annotations?: Record<string, unknown> }).annotations;
    expect(annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, openWorldHint: false });
  });

  it('makes the round trip: record, supersede, assemble state_based, search', async () => {
    const results: Results = [];
    for (const [i, [name, args]] of ROUND_TRIP.entries()) results.push(await call(name, args, `call-${i}`));
    expectRoundTrip(results);
  });

  it("the adapter's own schema check takes what the server takes and refuses what it refuses", async () => {
    // The call from the report that first failed: a string value, an environment of text and JSON.
    await call(
      'set_environment',
      {
        partition: P,
        signals: [
          { key: 'timezone', value: 'Europe/Berlin' },
          { key: 'load', value_json: '[1,2]' },
        ],
      },
      'env',
    );
    await expect(tool('record_facts').invoke({ partition: P, facts: [{ key: 'office', value: { city: 'Paris' } }] })).rejects.toThrow(
      /did not match expected schema/,
    );
  });
});

describe('Vercel AI SDK (@ai-sdk/mcp) through the README snippet', () => {
  let connected: Awaited<ReturnType<typeof aiSdkTools>>;

  beforeAll(async () => {
    connected = await aiSdkTools(dbTarget('sqlite', 'aisdk').db);
  }, 180_000);

  afterAll(async () => {
    await connected?.client.close();
  });

  it('loads every tool', () => {
    expect(Object.keys(connected.tools).sort()).toEqual(TOOL_NAMES);
  });

  it("makes the round trip in generateText's agent loop", async () => {
    let step = 0;
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    // The mock model asks for one tool call per step, then answers.
    const model = new MockLanguageModelV3({
      doGenerate: () => {
        const next = ROUND_TRIP[step];
        step += 1;
        return Promise.resolve(
          next
            ? {
                content: [{ type: 'tool-call' as const, toolCallId: `call-${step}`, toolName: next[0], input: JSON.stringify(next[1]) }],
                finishReason: { unified: 'tool-calls' as const, raw: undefined },
                usage,
                warnings: [],
              }
            : {
                content: [{ type: 'text' as const, text: 'The office is in Berlin.' }],
                finishReason: { unified: 'stop' as const, raw: undefined },
                usage,
                warnings: [],
              },
        );
      },
    });
    const run = await generateText({
      model,
      tools: connected.tools,
      prompt: 'Alice moved from Hamburg to Berlin.',
      stopWhen: stepCountIs(ROUND_TRIP.length + 1),
    });
    expect(run.text).toBe('The office is in Berlin.');
    const outputs = run.steps.flatMap((s) => s.toolResults).map((r) => r.output as { isError?: boolean; structuredContent: Record<string, unknown> });
    expect(outputs).toHaveLength(ROUND_TRIP.length);
    for (const o of outputs) expect(o.isError ?? false).toBe(false);
    expectRoundTrip(outputs.map((o) => o.structuredContent));
    // The model was shown each tool's portable schema as its parameters.
    const shown = model.doGenerateCalls[0]?.tools?.find((t) => t.name === 'record_facts') as
      { inputSchema: { properties: Record<string, unknown> } } | undefined;
    expect(shown?.inputSchema.properties.partition).toMatchObject({ type: 'string' });
  });
});

describe('the README shows the snippets the tests run', () => {
  it('embeds each snippet file verbatim', () => {
    const readme = fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    for (const file of ['langchain.ts', 'ai-sdk.ts', 'desktop-config.json']) {
      const text = fs.readFileSync(path.join(repoRoot, 'test', 'mcp', 'snippets', file), 'utf8').trimEnd();
      const fence = file.endsWith('.json') ? 'json' : 'ts';
      expect(readme, file).toContain(`\`\`\`${fence}\n${text}\n\`\`\``);
    }
  });
});
