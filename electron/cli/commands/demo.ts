// `statelens demo`: fills a database with the deterministic demo dataset (three organisations,
// their users, capabilities and organisational knowledge) of any size.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';
import { generateDemo } from '../../engine/demo';
import { Store } from '../../engine/store';
import { EXIT, intOpt, requireString, stringOpt, type CliCommand } from '../command';
import { progressBar } from '../progress';

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Generate the demo dataset (deterministic for a seed) into a new database',
  usage: `statelens demo --db FILE [--facts N] [--seed S] [--json]

Writes realistic enterprise memory for three organisations: users with identities, capabilities
with maturity levels, organisational knowledge with documents and ACLs, supersession chains of
every rule, dependencies and review flags, constraints, scopes, working sets, environment
signals, saved queries, agent state and context documents. N facts (default 10,000; up to
50,000,000), one transaction per 10,000. The same seed gives the same content.

The database must be new or empty. Exit codes: 0 written, 1 failed (nothing of the failed batch
is written), 2 usage error.`,
  options: {
    db: { type: 'string' },
    facts: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const path = requireString(args, 'db');
    const facts = intOpt(args, 'facts', 10_000);
    const seed = stringOpt(args, 'seed') ?? 'statelens';
    if (fs.existsSync(path) && fs.statSync(path).isDirectory()) throw new StatelensError('INVALID_INPUT', `${path} is a folder; give a database file`);
    const store = Store.open(path);
    const bar = progressBar(io, 'demo');
    try {
      const existing = store.listPartitions().length;
      if (existing > 0) throw new StatelensError('CONFLICT', `${path} already holds ${existing} partitions; generate the demo into a new database file`);
      const stats = generateDemo(store, { facts, seed, onProgress: (done, total) => bar.update(done, total) });
      bar.end();
      if (args.values.json) {
        io.out(JSON.stringify(stats));
        return EXIT.ok;
      }
      const o = stats.outcomes;
      const r = stats.rules;
      io.out(
        `Wrote ${stats.facts.toLocaleString('en-US')} facts to ${path} in ${stats.seconds.toFixed(1)} s (${Math.round(stats.facts / Math.max(stats.seconds, 0.001)).toLocaleString('en-US')} facts/s), seed "${seed}"`,
      );
      io.out(
        `  ${stats.orgs} organisations, ${stats.partitions} partitions (${stats.users} users, ${stats.capabilities} capabilities), ${stats.documents} documents`,
      );
      io.out(
        `  ${o.superseded.toLocaleString('en-US')} superseding writes, ${o.proposal.toLocaleString('en-US')} proposals, ${o.stale.toLocaleString('en-US')} stale writes; rules: ${r.explicit} explicit, ${r.implicit} implicit, ${r.authority} authority, ${r.temporal} temporal`,
      );
      io.out(
        `  ${stats.flagged.toLocaleString('en-US')} review flags, ${stats.workingItems} working-set items, ${stats.environmentSignals} environment signals, ${stats.savedQueries} saved queries, ${stats.agentStates} agent states, ${stats.contextDocuments} context document versions`,
      );
      return EXIT.ok;
    } finally {
      bar.end();
      store.close();
    }
  },
};
