// `statelens mcp --db FILE|URL [--http]`: the MCP server for agents over stdio (stdout carries the
// protocol only; messages go to stderr), or over Streamable HTTP on 127.0.0.1 with a bearer token.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';
import { TOOLS } from '../../mcp/tools';
import { Store } from '../../engine/store';
import { MCP_MAX_BODY_BYTES, MCP_REQUEST_TIMEOUT_MS } from '../../mcp/http-limits';
import { EXIT, intOpt, requireString, stringOpt, type CliCommand } from '../command';

/** The environment variable that gives `statelens mcp --http` its bearer token. */
export const MCP_TOKEN_ENV = 'STATELENS_MCP_TOKEN';
import { dbName, openPgStore, pgStoreOf, PG_OPTIONS, PG_USAGE } from '../database';
import { MIN_TOKEN_CHARS, readTokensFile, tokenClients } from '../mcp-tokens';
import { databaseUrl } from '../db-url';

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the database to agents as an MCP server over stdio (or Streamable HTTP)',
  usage: `statelens mcp --db FILE|URL [--http [--port N] [--tokens FILE]]

Speaks the Model Context Protocol on stdin/stdout until the client disconnects. The database is
created when missing. Tools (each takes a partition: "user:ORG/USER", "capability:ORG/NAME",
"org:ORG" or {kind, org, user|capability}):
${TOOLS.map((t) => `  ${t.name.padEnd(20)} ${t.title}`).join('\n')}
Failures come back as tool errors whose text is {"code", "message", "details"}.
Example client configuration: {"command": "npx", "args": ["statelens", "mcp", "--db", "/path/memory.db"]}

--http serves the same tools over the MCP Streamable HTTP transport at http://127.0.0.1:PORT/mcp
(--port, default a free port) until interrupted. Every request needs "Authorization: Bearer TOKEN":
the token is $${MCP_TOKEN_ENV} when set, otherwise a random one printed at start. A Host or Origin
other than 127.0.0.1:PORT / localhost:PORT (DNS rebinding), a body over ${MCP_MAX_BODY_BYTES / 1024 / 1024} MiB and a
request slower than ${MCP_REQUEST_TIMEOUT_MS / 1000} s to arrive are refused. Other machines reach it through a tunnel
(ssh -L PORT:127.0.0.1:PORT host). On a PostgreSQL URL every session acts as the role and org the
URL names, unless --tokens gives each client its own:

--tokens FILE (a PostgreSQL store only) maps bearer tokens to login roles, so every client acts as
its own role and org and the roles' grants and row-level security hold per client. FILE is JSON:
  [{"name": "ann's agent", "token": "…", "role": "acme_agent_ann", "org": "acme"},
   {"name": "review desk", "token": "…", "url": "postgres://rey:secret@db:5432/memory", "org": "globex"}]
"role" connects with the --db URL as that login; "url" gives the whole connection (its own
password). Each MCP session opens its own connection as its token's role (on PGlite, which has one
connection, its transactions run as that role: SET LOCAL ROLE). Tokens are at least ${MIN_TOKEN_CHARS}
characters; an unknown token is refused (401), and a session answers only the token that opened it.
Keep FILE readable by the server's user only.
${PG_USAGE}`,
  options: { ...PG_OPTIONS, db: { type: 'string' }, http: { type: 'boolean' }, port: { type: 'string' }, tokens: { type: 'string' } },
  async run(args, io) {
    const url = databaseUrl(args);
    if (args.values.port !== undefined && args.values.http !== true) throw new StatelensError('INVALID_INPUT', '--port is for --http');
    if (args.values.tokens !== undefined && (args.values.http !== true || url === undefined))
      throw new StatelensError('INVALID_INPUT', '--tokens is for --http on a PostgreSQL store (--db URL): a database file has no roles');
    if (args.values.http === true) {
      const port = intOpt(args, 'port', 0);
      if (port > 65535) throw new StatelensError('INVALID_INPUT', `--port must be at most 65535, got ${port}`);
      const tokensFile = stringOpt(args, 'tokens');
      const { serveMcpHttp } = await import('../../mcp/http-transport');
      if (tokensFile !== undefined && url !== undefined) {
        const entries = readTokensFile(tokensFile);
        const { target, options } = pgStoreOf(args, url);
        const { clients, close } = tokenClients(entries, target, options);
        const served = await serveMcpHttp(undefined, { port, clients, log: (line) => io.err(line) });
        io.err(
          `statelens mcp: serving ${dbName(args)} over Streamable HTTP at ${served.url} (${TOOLS.length} tools) to ${clients.size} clients, each as its own role`,
        );
        await untilInterrupted();
        await served.close();
        close();
        io.err('statelens mcp: closed');
        return EXIT.ok;
      }
      const store = url !== undefined ? openPgStore(args, url, { create: true }) : Store.open(requireString(args, 'db'), { create: true });
      const token = process.env[MCP_TOKEN_ENV] || undefined;
      const served = await serveMcpHttp(store, { port, ...(token ? { token } : {}), log: (line) => io.err(line) });
      io.err(`statelens mcp: serving ${store.path} over Streamable HTTP at ${served.url} (${TOOLS.length} tools)`);
      if (!token) io.err(`statelens mcp: bearer token ${served.token}`);
      await untilInterrupted();
      await served.close();
      store.close();
      io.err('statelens mcp: closed');
      return EXIT.ok;
    }
    if (url !== undefined) {
      const { serveStdio } = await import('../../mcp/server');
      await serveStdio(
        () => openPgStore(args, url, { create: true }),
        (line) => io.err(line),
      );
      return EXIT.ok;
    }
    const db = requireString(args, 'db');
    if (!fs.existsSync(path.dirname(path.resolve(db)))) throw new StatelensError('NOT_FOUND', `The folder of ${db} does not exist`);
    // The MCP SDK is loaded only by this command, not by every `statelens` start.
    const { serveStdio } = await import('../../mcp/server');
    await serveStdio(db, (line) => io.err(line));
    return EXIT.ok;
  },
};

function untilInterrupted(): Promise<void> {
  return new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}
