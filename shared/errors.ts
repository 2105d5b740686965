// The one serialisable error shape every failure takes across IPC, HTTP, CLI and MCP.
// Engine code throws StatelensError; transports send `toErrorShape(e)` and never a stack.
import { z } from 'zod';

export const ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'NOT_A_STATELENS_DB',
  'CORRUPT_DB',
  'DB_TOO_NEW',
  'READ_ONLY',
  'DISK_FULL',
  'BUSY',
  'DB_UNAVAILABLE',
  'PERMISSION_DENIED',
  'LEVEL_NOT_ALLOWED',
  'PARTITION_MISMATCH',
  'CONFLICT',
  'NO_DATABASE',
  'CANCELLED',
  'UNKNOWN_CHANNEL',
  'FORBIDDEN_SENDER',
  'UNAUTHORIZED',
  'IMPORT_FAILED',
  'NOT_SUPPORTED',
  'INTERNAL',
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorShape = z.strictObject({
  code: ErrorCode,
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorShape = z.infer<typeof ErrorShape>;

export class StatelensError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'StatelensError';
    this.code = code;
    this.details = details;
  }
  toShape(): ErrorShape {
    return this.details === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, details: this.details };
  }
}

export function isStatelensError(e: unknown): e is StatelensError {
  return e instanceof StatelensError;
}

/** Turns anything thrown into the error shape; unknown errors become INTERNAL without a stack. */
export function toErrorShape(e: unknown): ErrorShape {
  if (e instanceof StatelensError) return e.toShape();
  if (typeof e === 'object' && e !== null && 'code' in e && 'message' in e) {
    const parsed = ErrorShape.safeParse({ code: (e as { code: unknown }).code, message: (e as { message: unknown }).message });
    if (parsed.success) return parsed.data;
  }
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'INTERNAL', message };
}
