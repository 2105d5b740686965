// `statelens mcp --db FILE|URL`: the MCP server for agents over stdio (stdout carries the protocol
// only; messages go to stderr).
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../shared/errors';
import { TOOLS } from '../../mcp/tools';
import { EXIT, requireString, type CliCommand } from '../command';
import { openPgStore, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl } from '../db-url';

export const mcpCommand: CliCommand = {
  name: 'mcp',
  summary: 'Serve the database to agents as an MCP server over stdio',
  usage: `statelens mcp --db FILE

Speaks the Model Context Protocol on stdin/stdout until the client disconnects. The database is
created when missing. Tools (each takes a partition: "user:ORG/USER", "capability:ORG/NAME",
"org:ORG" or {kind, org, user|capability}):
${TOOLS.map((t) => `  ${t.name.padEnd(20)} ${t.title}`).join('\n')}
Failures come back as tool errors whose text is {"code", "message", "details"}.
Example client configuration: {"command": "npx", "args": ["statelens", "mcp", "--db", "/path/memory.db"]}
${PG_USAGE}`,
  options: { ...PG_OPTIONS, db: { type: 'string' } },
  async run(args, io) {
    const url = databaseUrl(args);
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
