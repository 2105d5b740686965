// `statelens import letta FILE.af`: a Letta agent file.
import { planLetta } from '../../engine/import/foreign/letta';
import { foreignImportCommand, readInput } from './import-foreign';

export const importLettaCommand = foreignImportCommand({
  name: 'letta',
  summary: 'Import a Letta agent file (.af): core memory blocks, archival passages and messages',
  synopsis: 'statelens import letta FILE.af --db TARGET [--json]',
  usage: `  FILE.af  an agent file exported from Letta (the "agents" + "blocks" layout, or the first
           single-agent layout with "core_memory")

Each agent becomes the capability partition capability:ORG/NAME (a new one starts junior). Its
core memory blocks become facts keyed "core memory: LABEL" (label, limit, description and
read-only kept in the provenance), archival passages (when the file holds them) facts keyed
"archival passage ID", and its user and assistant messages conversation turns in the session
letta:AGENT-ID. System, tool and heartbeat messages are not turns.`,
  plan: ([file], _args, org) => planLetta(readInput(file as string), file as string, org),
});
