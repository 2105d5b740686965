// `statelens import mem0 FILE [FILE]`: Mem0's history database and/or its memory export.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';
import { isSqliteFile, MEM0_DEFAULT_USER, planMem0, readMem0History, type Mem0Inputs } from '../../engine/import/foreign/mem0';
import { foreignImportCommand, readInput, targetPartition } from './import-foreign';

export const importMem0Command = foreignImportCommand({
  name: 'mem0',
  summary: "Import Mem0's memory: its history database (SQLite) and/or its memory export (JSON)",
  synopsis: 'statelens import mem0 HISTORY.db|EXPORT.json [EXPORT.json|HISTORY.db] --db TARGET [--partition P] [--json]',
  usage: `  HISTORY.db   Mem0's history database (the \`history\` table of the Python library, with actor and
               role, or the JavaScript library's \`memory_history\`): ADD / UPDATE / DELETE per memory id
  EXPORT.json  Mem0's memories as get_all returns them: a list, or {"results": [...]}, each with id,
               memory, user_id / agent_id / run_id, metadata, created_at / updated_at
  --partition  where memories go that name no user or agent (default user:ORG/${MEM0_DEFAULT_USER})

Each memory id becomes one fact keyed "mem0 memory ID" whose versions form a supersession chain:
ADD starts it, UPDATE supersedes the version before (the old text stays in the history), DELETE
leaves no text and records a deletion in the audit (who and when). A memory's user_id names a user
partition user:ORG/USER, an agent_id alone a capability partition capability:ORG/AGENT, and its
run_id the session the fact is scoped to. Given both files, the export says whose each memory is
and the history what became of it.`,
  options: { partition: { type: 'string' } },
  maxInputs: 2,
  plan(files, args, org) {
    const inputs: { -readonly [K in keyof Mem0Inputs]: Mem0Inputs[K] } = {};
    for (const file of files) {
      if (!fs.existsSync(file)) throw new StatelensError('NOT_FOUND', `${file} does not exist`);
      const sqlite = isSqliteFile(file);
      if (sqlite ? inputs.history : inputs.export)
        throw new StatelensError('INVALID_INPUT', `Give at most one history database and one export (two ${sqlite ? 'databases' : 'exports'} given)`);
      if (sqlite) inputs.history = { path: file, rows: readMem0History(file) };
      else inputs.export = { path: file, content: readInput(file) };
    }
    return planMem0(inputs, org, targetPartition(args, { kind: 'user', org, user: MEM0_DEFAULT_USER }));
  },
});
