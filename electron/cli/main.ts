// `statelens` dispatch: finds the subcommand, parses its options, turns typed errors into a
// one-line message and an exit code (never a stack trace for expected failures).
import readline from 'node:readline/promises';
import { isStatelensError } from '../../shared/errors';
import { EXIT, parseCommandArgs, type CliIO } from './command';
import { packageVersion } from './package-root';
import { COMMAND_GROUPS, COMMANDS } from './registry';
import { closestName } from './suggest';

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length), 4);
  const lines = [
    `statelens ${packageVersion()} — inspect and maintain state-based agent memory`,
    '',
    'Usage: statelens <command> [options]   (statelens <command> --help for details)',
    '       statelens --version',
  ];
  for (const group of COMMAND_GROUPS) {
    lines.push('', `${group.title}:`);
    for (const c of group.commands) lines.push(`  ${c.name.padEnd(width)}  ${c.summary}`);
  }
  return lines.join('\n');
}

/** The command names a user might have meant, two-word ones by their first word too. */
function suggestionFor(name: string, next: string | undefined): string | undefined {
  const names = COMMANDS.map((c) => c.name);
  if (next !== undefined) {
    const two = closestName(
      `${name} ${next}`,
      names.filter((n) => n.includes(' ')),
    );
    if (two) return two;
  }
  return closestName(name, [...new Set(names.map((n) => n.split(' ')[0] ?? n))]);
}

export function processIO(): CliIO {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    isTTY: Boolean(process.stdout.isTTY),
    async prompt(question) {
      if (!process.stdin.readable) return undefined;
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } catch {
        return undefined;
      } finally {
        rl.close();
      }
    },
  };
}

export async function runCli(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return EXIT.ok;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(packageVersion());
    return EXIT.ok;
  }
  // `import statebench FILE` and `import snapshot FILE` are two-word commands.
  const twoWord = rest[0] && COMMANDS.find((c) => c.name === `${name} ${rest[0]}`);
  const cmd = twoWord || COMMANDS.find((c) => c.name === name);
  const args = twoWord ? rest.slice(1) : rest;
  const family = COMMANDS.filter((c) => c.name.startsWith(`${name} `)).map((c) => c.name.slice(name.length + 1));
  if (!cmd && family.length > 0 && !rest[0]?.match(/^[a-z]/)) {
    io.err(`statelens ${name}: say what to import: ${family.map((f) => `\`statelens ${name} ${f}\``).join(' or ')}.`);
    return EXIT.usage;
  }
  if (!cmd) {
    const guess = name.startsWith('-') ? undefined : suggestionFor(name, rest[0]);
    const hint = guess ? ` Did you mean \`statelens ${guess}\`?` : ' Run `statelens --help` for the list of commands.';
    io.err(`statelens: unknown command "${name}${COMMANDS.some((c) => c.name.startsWith(`${name} `)) && rest[0] ? ` ${rest[0]}` : ''}".${hint}`);
    return EXIT.usage;
  }
  try {
    const parsed = parseCommandArgs(cmd, args);
    if (parsed.values.help) {
      io.out(`${cmd.summary}\n\nUsage: ${cmd.usage}`);
      return EXIT.ok;
    }
    return await cmd.run(parsed, io);
  } catch (e) {
    if (isStatelensError(e)) {
      io.err(`statelens ${cmd.name}: ${e.message} [${e.code}]`);
      return e.code === 'INVALID_INPUT' ? EXIT.usage : EXIT.failed;
    }
    io.err(`statelens ${cmd.name}: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return EXIT.failed;
  }
}
