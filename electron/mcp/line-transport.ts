// The MCP stdio transport: one JSON-RPC message per line on stdin, answers on stdout. Unlike a
// plain line reader it never ends the session over a bad message: a line over the size limit,
// a line that is not JSON and a message that is not JSON-RPC each get a JSON-RPC error answer
// (with the request's id when it can be read), and the next line is served as usual.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message accepted, in bytes of one line. The tools' schemas are bounded to fit in
 * it (see the tools' size notes); a larger line is answered with an error, not read. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export const JSONRPC = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602 } as const;

type Id = string | number | null;

/** The id of a request whose text cannot be parsed whole, read from its first bytes. */
function leadingId(head: string): Id {
  const m = /"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")/.exec(head);
  if (!m?.[1]) return null;
  try {
    return JSON.parse(m[1]) as Id;
  } catch {
    return null;
  }
}

function idOf(value: unknown): Id {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const id = (value as { id: unknown }).id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** Checks what the SDK's own schemas would reject with an unreadable dump (or not answer at
 * all): params that are not an object, and tool arguments that are not an object. */
function paramsProblem(message: Record<string, unknown>): string | undefined {
  if (!('params' in message) || message.params === undefined) return undefined;
  const params = message.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    return `params must be an object (named parameters), not ${Array.isArray(params) ? 'an array' : params === null ? 'null' : typeof params}`;
  }
  if (message.method === 'tools/call') {
    const p = params as Record<string, unknown>;
    if (typeof p.name !== 'string') return 'tools/call needs params.name, the tool name as a string';
    const args = p.arguments;
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      return `the arguments of ${p.name} must be an object of named arguments, not ${Array.isArray(args) ? 'an array' : args === null ? 'null' : typeof args}`;
    }
  }
  return undefined;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversized line is being skipped. */
  private skipping: { head: string; bytes: number } | undefined;
  private readonly onData = (chunk: Buffer) => this.receive(chunk);
  private readonly onError = (e: Error) => this.onerror?.(e);

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  async close(): Promise<void> {
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    this.chunks = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  private receive(chunk: Buffer): void {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      const part = nl === -1 ? rest : rest.subarray(0, nl);
      if (this.skipping) this.skipping.bytes += part.length;
      else if (this.size + part.length > this.maxBytes) {
        const head = Buffer.concat([...this.chunks, part])
          .subarray(0, 4096)
          .toString('utf8');
        this.skipping = { head, bytes: this.size + part.length };
        this.chunks = [];
        this.size = 0;
      } else {
        this.chunks.push(part);
        this.size += part.length;
      }
      if (nl === -1) return;
      this.endLine();
      rest = rest.subarray(nl + 1);
    }
  }

  private endLine(): void {
    if (this.skipping) {
      const { head, bytes } = this.skipping;
      this.skipping = undefined;
      void this.reject(
        leadingId(head),
        JSONRPC.invalidRequest,
        `The message is ${bytes} bytes, over the ${this.maxBytes}-byte limit of this server; it was not read. Send fewer or smaller items per call.`,
      );
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      void this.reject(leadingId(line.slice(0, 4096)), JSONRPC.parseError, `Parse error: the line is not JSON (${e instanceof Error ? e.message : String(e)})`);
      return;
    }
    const problem = typeof value === 'object' && value !== null && !Array.isArray(value) ? paramsProblem(value as Record<string, unknown>) : undefined;
    if (problem !== undefined) {
      void this.reject(idOf(value), JSONRPC.invalidParams, `Invalid params: ${problem}`);
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      void this.reject(
        idOf(value),
        JSONRPC.invalidRequest,
        'Invalid request: not a JSON-RPC 2.0 message (an object with "jsonrpc": "2.0" and a "method", or a response with an "id")',
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reject(id: Id, code: number, message: string): Promise<void> {
    this.onerror?.(new Error(message));
    // JSON-RPC answers an unidentifiable request with id null; the SDK's types want an id, so
    // the answer is written as plain JSON.
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }
}
