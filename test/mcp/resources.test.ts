// Memory as MCP resources, as a desktop assistant browses it: the server is started from the
// README's desktop config (./snippets/desktop-config.json, its database path filled in) with the
// SDK's client over stdio; partitions, their current facts and their assembled contexts are
// listed and read, reading changes nothing, and an unknown one is "resource not found"; on every store.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RESOURCE_NOT_FOUND, resourceUri } from '../../electron/mcp/resources';
import { dbTarget } from '../helpers/db-targets';
import { repoRoot } from '../helpers/paths';
import { describeStores } from '../helpers/stores';
import { STARTUP_TIMEOUT_MS } from './client';

interface DesktopConfig {
  mcpServers: Record<string, { command: string; args: string[] }>;
}

/** The README's desktop config with `db` in place of its example path. */
function desktopConfig(db: string): { command: string; args: string[] } {
  const config = JSON.parse(fs.readFileSync(path.join(repoRoot, 'test', 'mcp', 'snippets', 'desktop-config.json'), 'utf8')) as DesktopConfig;
  const server = config.mcpServers.statelens;
  if (!server) throw new Error('the desktop config names no statelens server');
  return { command: server.command, args: server.args.map((a) => (a === '/path/to/agent.db' ? db : a)) };
}

const ALICE = 'user:acme/alice';

describeStores('memory as MCP resources (desktop config, SDK client)', (_open, kind) => {
  let client: Client;
  const text = async (uri: string) => {
    const r = await client.readResource({ uri });
    const [content] = r.contents;
    expect(content?.uri).toBe(uri);
    return content && 'text' in content ? content.text : '';
  };
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    return r.structuredContent as Record<string, unknown>;
  };

  beforeAll(async () => {
    const { command, args } = desktopConfig(dbTarget(kind, 'resources').db);
    client = new Client({ name: 'desktop-assistant', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command, args, cwd: repoRoot, stderr: 'ignore' }), { timeout: STARTUP_TIMEOUT_MS });
    await tool('record_facts', { partition: ALICE, facts: [{ key: 'office', value: 'Hamburg' }] });
    await tool('record_facts', { partition: ALICE, facts: [{ key: 'office', value: 'Berlin', supersedes: 'office' }] });
    await tool('record_facts', { partition: 'org:acme', facts: [{ key: 'holiday', value: 'The office closes on 24 December' }] });
  }, 180_000);

  afterAll(async () => {
    await client?.close();
  });

  it('declares resources and lists each partition with its facts and its context', async () => {
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      [resourceUri(ALICE, 'facts'), resourceUri(ALICE, 'context'), resourceUri('org:acme', 'facts'), resourceUri('org:acme', 'context')].sort(),
    );
    expect(resourceUri(ALICE, 'facts')).toBe('statelens://partition/user%3Aacme%2Falice/facts');
    const facts = resources.find((r) => r.uri === resourceUri(ALICE, 'facts'));
    expect(facts).toMatchObject({ mimeType: 'application/json', title: 'Current facts: acme / user alice', description: '1 valid facts of 2' });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'statelens://partition/{partition}/context',
      'statelens://partition/{partition}/facts',
    ]);
  });

  it("a partition's facts resource holds its current facts only", async () => {
    const body = JSON.parse(await text(resourceUri(ALICE, 'facts'))) as {
      partition: string;
      facts: Array<{ key: string; value: string }>;
      total: number;
      more: boolean;
    };
    expect(body).toMatchObject({ partition: ALICE, total: 1, more: false });
    expect(body.facts.map((f) => [f.key, f.value])).toEqual([['office', 'Berlin']]);
  });

  it("a partition's context resource is its state_based context, and reading it counts no access", async () => {
    const context = await text(resourceUri(ALICE, 'context'));
    expect(context).toContain('Berlin');
    expect(context).not.toContain('Hamburg');
    expect(await text(resourceUri('org:acme', 'context'))).toContain('24 December');
    const found = (await tool('search_facts', { partition: ALICE, query: 'office' })).facts as Array<{ accessCount: number }>;
    expect(found.map((f) => f.accessCount)).toEqual([0]);
  });

  it('an unknown partition or resource is "resource not found"; a bad partition is invalid params', async () => {
    await expect(client.readResource({ uri: resourceUri('user:acme/nobody', 'facts') })).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND });
    await expect(client.readResource({ uri: 'statelens://partition/x/secrets' })).rejects.toMatchObject({ code: RESOURCE_NOT_FOUND });
    await expect(client.readResource({ uri: resourceUri('user:acme', 'facts') })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/not a partition/) as unknown,
    });
    // Still serving.
    expect((await client.listResources()).resources.length).toBe(4);
  });
});
