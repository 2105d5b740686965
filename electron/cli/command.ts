// The shape of one `statelens` subcommand and the I/O it may use. Each command lives in
// electron/cli/commands/<name>.ts and is listed once in electron/cli/registry.ts.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { StatelensError } from '../../shared/errors';

export interface CliIO {
  out(line: string): void;
  err(line: string): void;
  /** True when stdout is a terminal (progress bars only then). */
  readonly isTTY: boolean;
  /** Reads one line from stdin (for confirmations); undefined when stdin is closed. */
  prompt(question: string): Promise<string | undefined>;
}

export interface CliCommand {
  readonly name: string;
  readonly summary: string;
  /** Usage text shown by `statelens NAME --help`. */
  readonly usage: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly allowPositionals?: boolean;
  run(args: ParsedCli, io: CliIO): Promise<number>;
}

export interface ParsedCli {
  readonly values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  readonly positionals: string[];
}

/** Exit codes: 0 ok, 1 the operation failed or found problems, 2 usage error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export function parseCommandArgs(cmd: CliCommand, argv: string[]): ParsedCli {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' }, ...cmd.options },
      allowPositionals: cmd.allowPositionals ?? false,
      strict: true,
    });
    return { values: values as ParsedCli['values'], positionals };
  } catch (e) {
    throw new StatelensError('INVALID_INPUT', e instanceof Error ? e.message : String(e));
  }
}

export function stringOpt(args: ParsedCli, name: string): string | undefined {
  const v = args.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireString(args: ParsedCli, name: string): string {
  const v = stringOpt(args, name);
  if (v === undefined || v === '') throw new StatelensError('INVALID_INPUT', `--${name} is required`);
  return v;
}

export function intOpt(args: ParsedCli, name: string, fallback: number): number {
  const v = stringOpt(args, name);
  if (v === undefined) return fallback;
  const n = Number(v.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 0) throw new StatelensError('INVALID_INPUT', `--${name} must be a non-negative whole number, got "${v}"`);
  return n;
}

/** An option that takes one of `values`: the value, or `fallback` when absent (undefined without
 * one; a usage error when `required`). Anything else is a usage error that lists the choices. */
export function enumOpt<T extends string>(args: ParsedCli, name: string, values: readonly T[], options: { required: true }): T;
export function enumOpt<T extends string>(args: ParsedCli, name: string, values: readonly T[], options: { fallback: NoInfer<T> }): T;
export function enumOpt<T extends string>(args: ParsedCli, name: string, values: readonly T[]): T | undefined;
export function enumOpt<T extends string>(
  args: ParsedCli,
  name: string,
  values: readonly T[],
  options: { required?: boolean; fallback?: T } = {},
): T | undefined {
  const v = stringOpt(args, name);
  if (v === undefined || (v === '' && options.required)) {
    if (options.required) throw new StatelensError('INVALID_INPUT', `--${name} is required: one of ${values.join(', ')}`);
    return options.fallback;
  }
  if (!(values as readonly string[]).includes(v)) throw new StatelensError('INVALID_INPUT', `--${name} must be one of ${values.join(', ')}; got "${v}"`);
  return v as T;
}
