// A second agent process for the live-update test: opens the database through the engine and
// writes one fact into acme/ana per line read on stdin (plain text: a new fact with that value;
// a JSON object: that fact write, e.g. a correction), printing JSON lines.
// Usage: node --import tsx live-writer.ts --db FILE|URL
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { FactWriteInput } from '../../../shared/writes';
import { openStoreAt } from './store';

const { values } = parseArgs({ options: { db: { type: 'string' } } });
if (!values.db) throw new Error('--db is required');
const store = openStoreAt(values.db);
const ana = store.scope({ kind: 'user', org: 'acme', user: 'ana' });
const say = (m: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(m)}\n`);
say({ type: 'ready' });
let n = 0;
for await (const line of createInterface({ input: process.stdin })) {
  const text = line.trim();
  if (text === 'quit') break;
  n += 1;
  const input: FactWriteInput = text.startsWith('{')
    ? (JSON.parse(text) as FactWriteInput)
    : {
        key: `live_${n}`,
        value: text || `live fact ${n}`,
        ts: new Date(Date.UTC(2031, 0, n)).toISOString(),
        source: { type: 'agent', identity: 'live-writer', authority: 'manager' },
      };
  const r = ana.writeFact(input);
  say({ type: 'wrote', n, factId: r.factId, outcome: r.outcome, flagged: r.flagged, at: Date.now() });
}
store.close();
say({ type: 'done' });
