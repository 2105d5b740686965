// One file of another memory system read into a plan, by system: what the desktop's
// File › Import from… runs in the engine worker on the file the user chose (the CLI's commands
// take more inputs and options; see electron/cli/commands/import-*.ts).
import fs from 'node:fs';
import { StatelensError } from '../../../../shared/errors';
import { langGraphFilePlan } from './langgraph';
import { planLetta } from './letta';
import { MCP_MEMORY_DEFAULT_USER, readMcpMemory } from './mcp-memory';
import { isSqliteFile, MEM0_DEFAULT_USER, planMem0, readMem0History } from './mem0';
import type { ForeignPlan, ForeignSystem } from './plan';

/** The org of imported partitions when none is named (a database file's). */
export const DEFAULT_IMPORT_ORG = 'local';

/** A file's text; NOT_FOUND / IMPORT_FAILED saying why it cannot be read. */
export function readForeignFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (e) {
    const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
    throw new StatelensError(code === 'ENOENT' ? 'NOT_FOUND' : 'IMPORT_FAILED', `${file} cannot be read (${code || String(e)})`);
  }
}

/** The plan for `file` as `system` writes it, into `org`'s partitions. */
export function planForeignFile(system: ForeignSystem, file: string, org: string, nativeBinding?: string): ForeignPlan {
  if (!fs.existsSync(file)) throw new StatelensError('NOT_FOUND', `${file} does not exist`);
  switch (system) {
    case 'mcp-memory':
      return readMcpMemory(readForeignFile(file), file, { kind: 'user', org, user: MCP_MEMORY_DEFAULT_USER });
    case 'mem0': {
      const fallback = { kind: 'user', org, user: MEM0_DEFAULT_USER } as const;
      return isSqliteFile(file)
        ? planMem0({ history: { path: file, rows: readMem0History(file, nativeBinding) } }, org, fallback)
        : planMem0({ export: { path: file, content: readForeignFile(file) } }, org, fallback);
    }
    case 'langgraph':
      return langGraphFilePlan(readForeignFile(file), file, org);
    case 'letta':
      return planLetta(readForeignFile(file), file, org);
  }
}
