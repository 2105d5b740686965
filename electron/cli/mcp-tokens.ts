// `statelens mcp --http --tokens FILE`: who each bearer token is on a PostgreSQL store. Each token
// names a login role (or a whole connection URL) and the org it acts for; every MCP session of that
// token opens its own connection as that login, so the roles' grants and row-level security hold
// per client. PGlite has one connection: there each session's transactions act as the login
// (SET LOCAL ROLE) on the shared connection, under the same grants and policies.
import fs from 'node:fs';
import { z } from 'zod';
import { StatelensError } from '../../shared/errors';
import { parsePgTarget, type PgTarget } from '../engine/db/pg/target';
import { DEFAULT_PG_SCHEMA } from '../engine/db/pg/schema';
import { quoteIdent, SyncPg } from '../engine/db/pg/sync-client';
import { Store, type PgStoreOptions } from '../engine/store';
import type { McpHttpClient } from '../mcp/http-transport';

/** Shortest token accepted: a guessable one would let anyone in as its role. */
export const MIN_TOKEN_CHARS = 24;

const TokenEntry = z.strictObject({
  /** A name for logs (never the token). */
  name: z.string().min(1).max(200).optional(),
  token: z.string().min(MIN_TOKEN_CHARS).max(512),
  /** The login role this client connects as (the --db URL with this user name). */
  role: z.string().min(1).max(63).optional(),
  /** Or a whole connection URL (its own user and password). */
  url: z.string().min(1).max(2000).optional(),
  org: z.string().min(1).max(200),
});
const TokensFile = z.array(TokenEntry).min(1).max(1000);
type TokenEntry = z.infer<typeof TokenEntry>;

/** Reads and checks the tokens file: INVALID_INPUT naming the entry that is wrong. */
export function readTokensFile(file: string): TokenEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new StatelensError('INVALID_INPUT', `--tokens ${file} cannot be read as JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const parsed = TokensFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StatelensError('INVALID_INPUT', `--tokens ${file}: entry ${issue?.path.join('.') || '(the list)'}: ${issue?.message ?? 'invalid'}`);
  }
  const seen = new Set<string>();
  parsed.data.forEach((e, i) => {
    if ((e.role === undefined) === (e.url === undefined))
      throw new StatelensError('INVALID_INPUT', `--tokens ${file}: entry ${i} needs a role or a url (one of them)`);
    if (seen.has(e.token)) throw new StatelensError('INVALID_INPUT', `--tokens ${file}: entry ${i} repeats a token`);
    seen.add(e.token);
  });
  return parsed.data;
}

/** The clients of the store `target` names (schema in `options`), one per entry. */
export function tokenClients(
  entries: readonly TokenEntry[],
  target: PgTarget,
  options: PgStoreOptions,
): { clients: Map<string, McpHttpClient>; close(): void } {
  const schema = options.schema;
  let shared: SyncPg | undefined;
  const clients = new Map<string, McpHttpClient>();
  entries.forEach((e, i) => {
    const name = e.name ?? `${e.role ?? 'url'} (entry ${i})`;
    const open = (): Store => {
      if (target.kind === 'server') {
        const url = new URL(e.url ?? target.url);
        if (e.role !== undefined) {
          url.username = encodeURIComponent(e.role);
          url.password = '';
        }
        return Store.openPostgres(parsePgTarget(url.href), { ...(schema ? { schema } : {}), org: e.org });
      }
      if (e.url !== undefined)
        throw new StatelensError('INVALID_INPUT', `--tokens: ${name} gives a url; on ${target.kind} every client shares its one connection (give a role)`);
      shared ??= SyncPg.open(target, { searchPath: quoteIdent(schema ?? DEFAULT_PG_SCHEMA), existing: true });
      return Store.onPostgresConnection(keptOpen(shared), { ...(schema ? { schema } : {}), org: e.org, role: e.role as string });
    };
    clients.set(e.token, { name, open });
  });
  return { clients, close: () => shared?.close() };
}

/** The shared connection as one client's: closing the client's store leaves it open for the others. */
function keptOpen(conn: SyncPg): SyncPg {
  const view = Object.create(conn) as SyncPg;
  view.close = () => {
    if (conn.inTransaction) conn.rollback();
  };
  return view;
}
