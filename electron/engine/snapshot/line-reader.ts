// A synchronous, bounded line reader for JSONL/NDJSON files: fixed-size chunks, so memory stays
// flat; a line longer than the limit or that is not UTF-8 is an error naming its number. Being
// synchronous lets a whole import run inside one better-sqlite3 transaction.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const CHUNK = 1024 * 1024;

export interface Line {
  /** 1-based line number. */
  readonly number: number;
  readonly text: string;
  /** False for a last line with no trailing newline (a sign of truncation). */
  readonly terminated: boolean;
}

export function openForReading(path: string): number {
  try {
    // Files, and pipes such as /dev/stdin; a folder is the one thing that cannot be read as lines.
    if (fs.statSync(path).isDirectory()) throw new StatelensError('INVALID_INPUT', `${path} is a folder, not a file`);
    return fs.openSync(path, 'r');
  } catch (e) {
    if (e instanceof StatelensError) throw e;
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
    throw new StatelensError(
      code === 'ENOENT' ? 'NOT_FOUND' : 'IMPORT_FAILED',
      `${path} cannot be read (${code || (e instanceof Error ? e.message : String(e))})`,
    );
  }
}

/** Reads a chunk, waiting briefly when a non-blocking pipe or socket has nothing yet. */
function readChunk(fd: number, chunk: Buffer): number {
  for (;;) {
    try {
      return fs.readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = typeof e === 'object' && e !== null && 'code' in e ? (e as { code: unknown }).code : '';
      if (code === 'EAGAIN') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      else if (code === 'EOF') return 0;
      else throw e;
    }
  }
}

/** Lines of a file, or of an open descriptor (0 for standard input), which is left open. */
export function* readLines(source: string | number, maxLineBytes = DEFAULT_MAX_LINE_BYTES): Generator<Line> {
  const path = typeof source === 'number' ? (source === 0 ? 'stdin' : `fd ${source}`) : source;
  const fd = typeof source === 'number' ? source : openForReading(source);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const chunk = Buffer.alloc(CHUNK);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let number = 0;
  const decode = (buf: Buffer, n: number): string => {
    try {
      return decoder.decode(buf).replace(/\r$/, '');
    } catch {
      throw new StatelensError('IMPORT_FAILED', `${path} line ${n}: not valid UTF-8 text`, { line: n });
    }
  };
  const tooLong = (n: number): StatelensError =>
    new StatelensError('IMPORT_FAILED', `${path} line ${n}: longer than the limit of ${maxLineBytes} bytes (oversized record)`, {
      line: n,
      limit: maxLineBytes,
    });
  try {
    for (;;) {
      const read = readChunk(fd, chunk);
      if (read === 0) break;
      let start = 0;
      for (;;) {
        const nl = chunk.indexOf(0x0a, start);
        if (nl < 0 || nl >= read) break;
        number++;
        const piece = chunk.subarray(start, nl);
        if (pendingBytes + piece.length > maxLineBytes) throw tooLong(number);
        const whole = pending.length > 0 ? Buffer.concat([...pending, piece]) : piece;
        pending = [];
        pendingBytes = 0;
        yield { number, text: decode(whole, number), terminated: true };
        start = nl + 1;
      }
      if (start < read) {
        const rest = Buffer.from(chunk.subarray(start, read));
        pendingBytes += rest.length;
        if (pendingBytes > maxLineBytes) throw tooLong(number + 1);
        pending.push(rest);
      }
    }
    if (pendingBytes > 0) {
      number++;
      yield { number, text: decode(Buffer.concat(pending), number), terminated: false };
    }
  } finally {
    if (typeof source !== 'number') fs.closeSync(fd);
  }
}
