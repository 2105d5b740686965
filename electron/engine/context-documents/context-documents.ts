// Context documents: one versioned document per (partition, session) that a
// context-only agent reads at session start and replaces at session end. Every put appends a
// version; old versions stay for the inspector's history and diff.
import type { ContextDocumentVersion } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { ContextDocumentVersionSummary } from '../../../shared/inspect';
import { z } from 'zod';
import { SessionIdInput } from '../agent-state/agent-state';
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import { parseInput } from '../query/validate';

/** Seed 004's size target, enforced: a longer document is refused, not truncated. */
export const MAX_CONTEXT_DOCUMENT_WORDS = 5000;
/** Guards against a document of few but enormous "words". */
export const MAX_CONTEXT_DOCUMENT_CHARS = 100_000;
export const MAX_VERSIONS_LISTED = 1000;

export function countWords(body: string): number {
  return body.match(/\S+/gu)?.length ?? 0;
}

interface DocRow {
  session_id: string;
  version: number;
  body: string;
  created_at: string;
}

const toVersion = (r: DocRow): ContextDocumentVersion => ({ sessionId: r.session_id, version: r.version, body: r.body, createdAt: r.created_at });

/** Appends version n+1 of the session's document. Runs inside the caller's transaction. */
export function putContextDocument(ctx: PartitionContext, sessionIdInput: string, body: string): ContextDocumentVersion {
  const sessionId = parseInput(SessionIdInput, sessionIdInput, 'session id');
  if (typeof body !== 'string') throw new StatelensError('INVALID_INPUT', 'A context document body is text');
  if (body.length > MAX_CONTEXT_DOCUMENT_CHARS) {
    throw new StatelensError('INVALID_INPUT', `The context document has ${body.length} characters; at most ${MAX_CONTEXT_DOCUMENT_CHARS} are stored`, {
      chars: body.length,
      maxChars: MAX_CONTEXT_DOCUMENT_CHARS,
    });
  }
  const words = countWords(body);
  if (words > MAX_CONTEXT_DOCUMENT_WORDS) {
    throw new StatelensError(
      'INVALID_INPUT',
      `The context document has ${words} words; the limit is ${MAX_CONTEXT_DOCUMENT_WORDS}. Prune the oldest, least-referenced content first.`,
      {
        words,
        maxWords: MAX_CONTEXT_DOCUMENT_WORDS,
      },
    );
  }
  const version =
    (stmt<[number, string], number>(ctx.db, 'SELECT coalesce(max(version), 0) FROM context_documents WHERE partition_id = ? AND session_id = ?')
      .pluck()
      .get(ctx.partitionId, sessionId) as number) + 1;
  const createdAt = ctx.clock.now();
  stmt(ctx.db, 'INSERT INTO context_documents (partition_id, session_id, version, body, created_at) VALUES (?, ?, ?, ?, ?)').run(
    ctx.partitionId,
    sessionId,
    version,
    body,
    createdAt,
  );
  return { sessionId, version, body, createdAt };
}

/** The latest version, or the given one; null when there is none. */
export function getContextDocument(ctx: PartitionContext, sessionIdInput: string, version?: number): ContextDocumentVersion | null {
  const sessionId = parseInput(SessionIdInput, sessionIdInput, 'session id');
  if (version !== undefined) {
    parseInput(z.number().int().min(1), version, 'version');
    const row = stmt<[number, string, number], DocRow>(ctx.db, 'SELECT * FROM context_documents WHERE partition_id = ? AND session_id = ? AND version = ?').get(
      ctx.partitionId,
      sessionId,
      version,
    );
    return row ? toVersion(row) : null;
  }
  const row = stmt<[number, string], DocRow>(
    ctx.db,
    'SELECT * FROM context_documents WHERE partition_id = ? AND session_id = ? ORDER BY version DESC LIMIT 1',
  ).get(ctx.partitionId, sessionId);
  return row ? toVersion(row) : null;
}

/** The session's versions, newest first, as summaries (fetch a body with getContextDocument). */
export function contextDocumentVersions(ctx: PartitionContext, sessionIdInput: string): ContextDocumentVersionSummary[] {
  const sessionId = parseInput(SessionIdInput, sessionIdInput, 'session id');
  return stmt<[number, string, number], DocRow>(
    ctx.db,
    'SELECT * FROM context_documents WHERE partition_id = ? AND session_id = ? ORDER BY version DESC LIMIT ?',
  )
    .all(ctx.partitionId, sessionId, MAX_VERSIONS_LISTED)
    .map((r) => ({ version: r.version, createdAt: r.created_at, words: countWords(r.body) }));
}
