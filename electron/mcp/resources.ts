// Memory as MCP resources, for clients that let a person browse and attach them (desktop
// assistants): each partition's current facts and its assembled context, listed by
// `resources/list` and named by one URI template each. Reading never changes anything: the
// context is assembled as a preview, so no access is counted.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourceTemplatesRequestSchema,
  McpError,
  ListResourcesRequestSchema,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_BUDGET } from '../../shared/assembly';
import type { Fact } from '../../shared/domain';
import { StatelensError } from '../../shared/errors';
import { formatDesignation, parseDesignation } from '../engine/ingest/designation';
import type { Store } from '../engine/store';

const SCHEME = 'statelens';
/** Current facts shown in one read: the newest this many (the resource says when there are more). */
export const FACTS_PER_RESOURCE = 200;
/** Resources listed per `resources/list` page. */
const PAGE = 100;

const RESOURCE_KINDS = {
  facts: {
    template: `${SCHEME}://partition/{partition}/facts`,
    title: 'Current facts',
    description: 'The valid facts of one partition, newest first, as JSON',
    mimeType: 'application/json',
  },
  context: {
    template: `${SCHEME}://partition/{partition}/context`,
    title: 'Assembled context',
    description: `The context a model would see for the partition (state_based, ${DEFAULT_BUDGET} tokens), assembled as a preview`,
    mimeType: 'text/markdown',
  },
} as const;
type ResourceKind = keyof typeof RESOURCE_KINDS;

/** The URI of one partition's resource; the partition in its short text form, percent-encoded. */
export function resourceUri(designation: string, kind: ResourceKind): string {
  return RESOURCE_KINDS[kind].template.replace('{partition}', encodeURIComponent(designation));
}

function parseUri(uri: string): { designation: string; kind: ResourceKind } {
  const m = /^statelens:\/\/partition\/([^/]+)\/(facts|context)$/.exec(uri);
  if (!m?.[1] || !m[2])
    throw new StatelensError(
      'NOT_FOUND',
      `No resource "${uri.slice(0, 300)}": use ${Object.values(RESOURCE_KINDS)
        .map((k) => k.template)
        .join(' or ')}`,
    );
  let designation: string;
  try {
    designation = decodeURIComponent(m[1]);
  } catch {
    throw new StatelensError('INVALID_INPUT', `The partition in "${uri.slice(0, 300)}" is not percent-encoded text`);
  }
  return { designation, kind: m[2] as ResourceKind };
}

function listResources(store: Store, cursor: string | undefined): { resources: Resource[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isInteger(start) || start < 0) throw new StatelensError('INVALID_INPUT', `Not a cursor of resources/list: "${String(cursor).slice(0, 100)}"`);
  const partitions = store.listPartitions();
  const page = partitions.slice(start, start + PAGE);
  const resources = page.flatMap((p) => {
    const designation = formatDesignation(p.ref);
    return (Object.keys(RESOURCE_KINDS) as ResourceKind[]).map((kind) => ({
      uri: resourceUri(designation, kind),
      name: `${designation} ${kind}`,
      title: `${RESOURCE_KINDS[kind].title}: ${p.label}`,
      description: kind === 'facts' ? `${p.validFacts} valid facts of ${p.facts}` : RESOURCE_KINDS[kind].description,
      mimeType: RESOURCE_KINDS[kind].mimeType,
    }));
  });
  return { resources, ...(start + PAGE < partitions.length ? { nextCursor: String(start + PAGE) } : {}) };
}

function readResource(store: Store, uri: string): { uri: string; mimeType: string; text: string } {
  const { designation, kind } = parseUri(uri);
  const h = store.scope(parseDesignation(designation));
  if (kind === 'context') {
    const r = h.assemble({ strategy: 'state_based', budget: DEFAULT_BUDGET, query: '', sessionId: 'default', provenance: 'included' });
    return { uri, mimeType: RESOURCE_KINDS.context.mimeType, text: r.text };
  }
  const page = h.listFacts({ filter: { validity: 'valid' }, sort: { column: 'ts', direction: 'desc' }, page: { limit: FACTS_PER_RESOURCE } });
  const facts = page.rows.map((r) => h.getFact(r.id)).filter((f): f is Fact => f !== undefined);
  const body = { partition: designation, facts, total: page.total?.count ?? facts.length, more: page.nextCursor !== null };
  return { uri, mimeType: RESOURCE_KINDS.facts.mimeType, text: JSON.stringify(body, null, 2) };
}

/** The MCP error code for "no such resource". */
export const RESOURCE_NOT_FOUND = -32002;

/** Our typed error as a JSON-RPC error: NOT_FOUND as "no such resource", the rest as invalid
 * params, each with our error shape as its data. */
function answered<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (!(e instanceof StatelensError)) throw e;
    throw new McpError(e.code === 'NOT_FOUND' ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, e.message, e.toShape());
  }
}

/** Answers resources/list, resources/templates/list and resources/read on `server`. */
export function serveResources(server: Server, store: Store): void {
  const templates: ResourceTemplate[] = (Object.keys(RESOURCE_KINDS) as ResourceKind[]).map((kind) => ({
    uriTemplate: RESOURCE_KINDS[kind].template,
    name: `partition ${kind}`,
    title: RESOURCE_KINDS[kind].title,
    description: `${RESOURCE_KINDS[kind].description}. {partition} is "user:ORG/USER", "capability:ORG/NAME" or "org:ORG", percent-encoded.`,
    mimeType: RESOURCE_KINDS[kind].mimeType,
  }));
  server.setRequestHandler(ListResourcesRequestSchema, (request) => answered(() => listResources(store, request.params?.cursor)));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: templates }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => answered(() => ({ contents: [readResource(store, request.params.uri)] })));
}
