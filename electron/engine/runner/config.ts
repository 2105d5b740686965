// The runner's TOML configuration: `[agent] context_only = true` by default selects
// the context-only runner; false selects the entries runner with a flush every N messages.
// Errors name the file, line and key.
import fs from 'node:fs';
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { StatelensError } from '../../../shared/errors';
import { MAX_CONTEXT_DOCUMENT_WORDS } from '../context-documents/context-documents';

/** Seed 004's cap, which is also the most a stored context document may hold. */
export const DEFAULT_MAX_WORDS = MAX_CONTEXT_DOCUMENT_WORDS;

export const RunnerConfig = z.strictObject({
  agent: z
    .strictObject({
      /** true: context-only runner (3 store calls per session); false: entries runner. */
      context_only: z.boolean().default(true),
      /** Entries runner: put the context document after every N stored messages. */
      flush_every: z.number().int().min(1).max(100_000).default(10),
      /** Word cap of the synthesised context document (at most the store's 5,000). */
      max_words: z.number().int().min(50).max(MAX_CONTEXT_DOCUMENT_WORDS).default(DEFAULT_MAX_WORDS),
      /** Facts seen in this many most recent sessions are never pruned. */
      protect_recent_sessions: z.number().int().min(1).max(1000).default(3),
    })
    .prefault({}),
  store: z
    .strictObject({
      /** The partition the agent's memory lives in (user:ORG/USER, capability:ORG/NAME, org:ORG). */
      partition: z.string().min(1).max(500).default('user:runner/agent'),
      /** Session id under which the memory-wide context document is versioned. */
      context_session: z.string().min(1).max(200).default('memory'),
    })
    .prefault({}),
});
export type RunnerConfig = z.infer<typeof RunnerConfig>;

function lineOfKey(text: string, table: string | undefined, key: string | undefined): number | undefined {
  const lines = text.split('\n');
  let current: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = (lines[i] ?? '').trim();
    const header = /^\[([^\]]+)\]/.exec(l);
    if (header) {
      current = header[1]?.trim();
      if (key === undefined && current === table) return i + 1;
      continue;
    }
    if (key !== undefined && current === table && new RegExp(`^"?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*=`).test(l)) return i + 1;
  }
  return undefined;
}

/** Parses TOML text; `source` names it in errors. An empty text gives every default. */
export function parseRunnerConfig(text: string, source = 'statelens.toml'): RunnerConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (e) {
    if (e instanceof TomlError) {
      const first = e.message.split('\n')[0] ?? e.message;
      throw new StatelensError('INVALID_INPUT', `${source} line ${e.line}: ${first}`, { line: e.line, column: e.column });
    }
    throw new StatelensError('INVALID_INPUT', `${source}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const parsed = RunnerConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.map(String) ?? [];
    // An unknown key is reported on its parent; name the key itself.
    const unknown = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
    const table = unknown !== undefined ? path[0] : path.length > 1 ? path[0] : undefined;
    const key = unknown ?? (path.length > 1 ? path[1] : path[0]);
    const line = table === undefined && unknown !== undefined ? lineOfKey(text, key, undefined) : lineOfKey(text, table, key);
    const field = [table, key].filter(Boolean).join('.');
    throw new StatelensError(
      'INVALID_INPUT',
      `${source}${line ? ` line ${line}` : ''}: ${field ? `${field}: ` : ''}${unknown !== undefined ? 'unknown key' : (issue?.message ?? 'invalid')}`,
      {
        ...(line ? { line } : {}),
        field,
      },
    );
  }
  return parsed.data;
}

export function loadRunnerConfig(path: string): RunnerConfig {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
    throw new StatelensError(code === 'ENOENT' ? 'NOT_FOUND' : 'INVALID_INPUT', `${path} cannot be read (${code || String(e)})`);
  }
  return parseRunnerConfig(text, path);
}
