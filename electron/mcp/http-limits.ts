// The limits of `statelens mcp --http`, apart from the transport so that help text can name them
// without loading the MCP SDK.
export const MCP_HTTP_PATH = '/mcp';
/** Largest request body accepted (a record_facts call of many facts fits well within it). */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** How long a request may take to arrive in full (headers and body). */
export const MCP_REQUEST_TIMEOUT_MS = 30_000;
/** Open sessions at once: a client that never ends its sessions cannot exhaust the process. */
export const MCP_MAX_SESSIONS = 64;
