// `statelens demo`: fills a database (a file or a PostgreSQL schema) with the deterministic demo
// dataset (three organisations, their users, capabilities and organisational knowledge) of any size.
import fs from 'node:fs';
import { StatelensError } from '../../../shared/errors';
import { DEFAULT_PG_SCHEMA } from '../../engine/db/pg/schema';
import { generateDemo } from '../../engine/demo';
import { EXIT, intOpt, stringOpt, type CliCommand } from '../command';
import { dbName, openDb, PG_OPTIONS, PG_USAGE, pgStoreOf } from '../database';
import { databaseUrl } from '../db-url';
import { progressBar } from '../progress';

export const demoCommand: CliCommand = {
  name: 'demo',
  summary: 'Generate the demo dataset (deterministic for a seed) into a new database',
  usage: `statelens demo --db TARGET [--facts N] [--seed S] [--json]

Writes realistic enterprise memory for three organisations: users with identities, capabilities
with maturity levels, organisational knowledge with documents and ACLs, supersession chains of
every rule, dependencies and review flags, constraints, scopes, working sets, environment
signals, saved queries, agent state and context documents. N facts (default 10,000; up to
50,000,000), one transaction per 10,000. The same seed gives the same content.

The database (on a server: the schema) must be new or empty; it is created when missing. Exit
codes: 0 written, 1 failed (nothing of the failed batch is written), 2 usage error.
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    db: { type: 'string' },
    facts: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run(args, io) {
    const path = dbName(args);
    const facts = intOpt(args, 'facts', 10_000);
    const seed = stringOpt(args, 'seed') ?? 'statelens';
    const url = databaseUrl(args);
    if (url === undefined && fs.existsSync(path) && fs.statSync(path).isDirectory())
      throw new StatelensError('INVALID_INPUT', `${path} is a folder; give a database file`);
    // On a server the schema is what must be empty: say which one.
    const where = url === undefined ? path : `schema "${pgStoreOf(args, url).options.schema ?? DEFAULT_PG_SCHEMA}" on ${path}`;
    const store = openDb(args, { create: true });
    const bar = progressBar(io, 'demo');
    try {
      const existing = store.listPartitions().length;
      if (existing > 0)
        throw new StatelensError(
          'CONFLICT',
          `${where} already holds ${existing} partitions; generate the demo into ${url === undefined ? 'a new database file' : 'an empty schema (--schema NAME)'}`,
        );
      const stats = generateDemo(store, { facts, seed, onProgress: (done, total) => bar.update(done, total) });
      bar.end();
      if (args.values.json) {
        io.out(JSON.stringify(stats));
        return EXIT.ok;
      }
      const o = stats.outcomes;
      const r = stats.rules;
      io.out(
        `Wrote ${stats.facts.toLocaleString('en-US')} facts to ${where} in ${stats.seconds.toFixed(1)} s (${Math.round(stats.facts / Math.max(stats.seconds, 0.001)).toLocaleString('en-US')} facts/s), seed "${seed}"`,
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
