// `statelens mcp --db FILE|URL [--http]`: the MCP server for agents over stdio (stdout carries the
// protocol only; messages go to stderr), or over Streamable HTTP on 127.0.0.1 with a bearer token.
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';
import { TOOLS } from '../../mcp/tools';
import { Store } from '../../engine/store';
import { MCP_MAX_BODY_BYTES, MCP_REQUEST_TIMEOUT_MS } from '../../mcp/http-limits';
import { EXIT, intOpt, requireString, type CliCommand } from '../command';

/** The environment variable that gives `statelens mcp --http` its bearer token. */
export const MCP_TOKEN_ENV = 'STATELENS_MCP_TOKEN';
import { openPgStore, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl } from '../db-url';

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the database to agents as an MCP server over stdio (or Streamable HTTP)',
  usage: `statelens mcp --db FILE [--http [--port N]]

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
URL names.
${PG_USAGE}`,
  options: { ...PG_OPTIONS, db: { type: 'string' }, http: { type: 'boolean' }, port: { type: 'string' } },
  async run(args, io) {
    const url = databaseUrl(args);
    if (args.values.port !== undefined && args.values.http !== true) throw new StatelensError('INVALID_INPUT', '--port is for --http');
    if (args.values.http === true) {
      const port = intOpt(args, 'port', 0);
      if (port > 65535) throw new StatelensError('INVALID_INPUT', `--port must be at most 65535, got ${port}`);
      const store = url !== undefined ? openPgStore(args, url, { create: true }) : Store.open(requireString(args, 'db'), { create: true });
      const { serveMcpHttp } = await import('../../mcp/http-transport');
      const token = process.env[MCP_TOKEN_ENV] || undefined;
      const served = await serveMcpHttp(store, { port, ...(token ? { token } : {}), log: (line) => io.err(line) });
      io.err(`statelens mcp: serving ${store.path} over Streamable HTTP at ${served.url} (${TOOLS.length} tools)`);
      if (!token) io.err(`statelens mcp: bearer token ${served.token}`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
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
