// `statelens runner`: runs a generated multi-session conversation through the runner that
// statelens.toml selects (`[agent] context_only = true` by default), or through both
// with --compare, printing store calls and time per session. The TOML is --config, else
// ./statelens.toml when the working directory has one, else the defaults.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isStatelensError, StatelensError } from '../../../shared/errors';
import { parseDesignation } from '../../engine/ingest/designation';
import { parseRunnerConfig, loadRunnerConfig, type RunnerConfig } from '../../engine/runner/config';
import { generateDataset } from '../../engine/runner/dataset';
import { compareRunners, runSessions, type RunResult } from '../../engine/runner/run';
import { Store } from '../../engine/store';
import { EXIT, intOpt, stringOpt, type CliCommand, type CliIO } from '../command';
import { openDb, PG_OPTIONS, PG_USAGE } from '../database';
import { databaseUrl, DB_URL_ENV } from '../db-url';

function table(io: CliIO, results: readonly RunResult[]): void {
  const head = ['session', 'date', 'msgs', ...results.flatMap((r) => [`${r.runner} calls`, `${r.runner} ms`])];
  io.out(`| ${head.join(' | ')} |`);
  io.out(`| ${head.map(() => '---').join(' | ')} |`);
  const first = results[0];
  if (!first) return;
  first.sessions.forEach((s, i) => {
    const cells = [
      s.sessionId,
      s.date,
      String(s.messages),
      ...results.flatMap((r) => [String(r.sessions[i]?.storeCalls ?? ''), (r.sessions[i]?.ms ?? 0).toFixed(2)]),
    ];
    io.out(`| ${cells.join(' | ')} |`);
  });
  io.out(
    `| total | | ${first.sessions.reduce((a, s) => a + s.messages, 0)} | ${results.map((r) => `${r.totalCalls} | ${r.totalMs.toFixed(1)}`).join(' | ')} |`,
  );
  for (const r of results) {
    const n = Math.max(1, r.sessions.length);
    io.out(
      `${r.runner}: ${r.totalCalls} store calls (${(r.totalCalls / n).toFixed(1)} per session), ${(r.totalMs / n).toFixed(2)} ms per session, final document ${r.finalDocument ? r.finalDocument.split(/\s+/).filter(Boolean).length : 0} words`,
    );
  }
  const entries = results.find((r) => r.runner === 'entries');
  const only = results.find((r) => r.runner === 'context_only');
  if (entries && only && entries.totalCalls > 0) {
    io.out(
      `context-only saves ${(100 * (1 - only.totalCalls / entries.totalCalls)).toFixed(0)}% of store calls and runs ${(entries.totalMs / Math.max(only.totalMs, 0.001)).toFixed(1)}x faster`,
    );
  }
}

/** The configuration file the runner selection reads when no --config is given. */
export const DEFAULT_CONFIG_FILE = 'statelens.toml';

/** --config, else ./statelens.toml if present, else the defaults; `source` says which, for the log. */
function resolveConfig(configArg: string | undefined): { config: RunnerConfig; source: string } {
  if (configArg) return { config: loadRunnerConfig(configArg), source: configArg };
  const local = path.resolve(DEFAULT_CONFIG_FILE);
  if (fs.existsSync(local)) return { config: loadRunnerConfig(local), source: local };
  return { config: parseRunnerConfig('', 'defaults'), source: `defaults (no --config, no ${DEFAULT_CONFIG_FILE} in ${process.cwd()})` };
}

export const runnerCommand: CliCommand = {
  name: 'runner',
  summary: 'Run a generated multi-session dataset through the TOML-selected runner (or both) and print store calls',
  usage: `statelens runner [--config statelens.toml] [--sessions 50] [--messages 10] [--seed 42] [--db TARGET] [--compare] [--json] [--quiet]

  --config    TOML file; [agent] context_only = true (default) selects the context-only runner
              (three store calls per session), false the entries runner (every message stored,
              the context document flushed every flush_every messages). Without --config,
              ./statelens.toml is read when the current directory has one; otherwise the
              defaults apply. Keys: [agent] context_only, flush_every, max_words,
              protect_recent_sessions; [store] partition, context_session.
  --compare   run both runners (each in its own partition) and print them side by side
  --db        keep the memory in this database, a file or a server schema (created when missing;
              default: $${DB_URL_ENV} when set, else a temporary database, removed afterwards)

Logs (stderr) say which configuration file was read and which runner is active
(context_only=true|false); --quiet silences them. Exit codes: 0 ran, 1 the run failed, 2 usage
error (bad option or configuration).
${PG_USAGE}`,
  options: {
    ...PG_OPTIONS,
    config: { type: 'string' },
    sessions: { type: 'string' },
    messages: { type: 'string' },
    seed: { type: 'string' },
    db: { type: 'string' },
    compare: { type: 'boolean' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
  async run(args, io) {
    const { config, source } = resolveConfig(stringOpt(args, 'config'));
    // A bad partition is a configuration error (exit 2): check it before anything runs.
    parseDesignation(config.store.partition);
    const sessions = intOpt(args, 'sessions', 50);
    if (sessions < 1 || sessions > 100_000) throw new StatelensError('INVALID_INPUT', '--sessions must be between 1 and 100000');
    const dataset = generateDataset({ sessions, messagesPerSession: intOpt(args, 'messages', 10), seed: intOpt(args, 'seed', 42) });
    const kept = stringOpt(args, 'db') || databaseUrl(args) !== undefined;
    const tmp = kept ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-runner-'));
    const store = tmp === undefined ? openDb(args, { create: true }) : Store.open(path.join(tmp, 'runner.db'));
    const log = args.values.quiet ? () => {} : (line: string) => io.err(line);
    const selected = args.values.compare ? 'both runners (--compare)' : config.agent.context_only ? 'context_only runner' : 'entries runner';
    log(`config=${source} context_only=${config.agent.context_only} active=${selected}`);
    try {
      let results: RunResult[];
      try {
        results = args.values.compare ? await compareRunners(store, config, dataset, log) : [await runSessions(store, config, dataset, log)];
      } catch (e) {
        // Options and configuration were checked above, so a refusal here (say, a document over
        // the store's limit) is the run failing, not a usage error: exit 1, not 2.
        if (!isStatelensError(e) || e.code !== 'INVALID_INPUT') throw e;
        io.err(`statelens runner: the run failed: ${e.message} [${e.code}]`);
        return EXIT.failed;
      }
      if (args.values.json) {
        io.out(JSON.stringify(results.map((r) => ({ runner: r.runner, totalCalls: r.totalCalls, totalMs: r.totalMs, sessions: r.sessions }))));
      } else table(io, results);
      return EXIT.ok;
    } finally {
      store.close();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
};
