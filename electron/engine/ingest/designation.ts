// Partition designations as agents and people type them: a PartitionRef object, or the short
// forms `user:ORG/USER`, `capability:ORG/NAME` and `org:ORG` (organisational knowledge).
import { z } from 'zod';
import { PartitionRef, showUnsafe } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import { parseInput } from '../query/validate';

const SHORT = /^(user|capability|org|organizational|organisational):([^/\s]{1,200})(?:\/(.{1,200}))?$/;

/** Parses the short string form; throws INVALID_INPUT saying what the forms are. */
export function parseDesignation(text: string): PartitionRef {
  const m = SHORT.exec(text.trim());
  const bad = (): StatelensError =>
    new StatelensError('INVALID_INPUT', `"${showUnsafe(text)}" is not a partition: use user:ORG/USER, capability:ORG/NAME or org:ORG`, { partition: text });
  if (!m) throw bad();
  const [, kind, org, rest] = m;
  if (!org) throw bad();
  if ((kind === 'user' || kind === 'capability') !== Boolean(rest)) throw bad();
  const ref = kind === 'user' ? { kind, org, user: rest } : kind === 'capability' ? { kind, org, capability: rest } : { kind: 'organizational', org };
  const parsed = PartitionRef.safeParse(ref);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StatelensError(
      'INVALID_INPUT',
      `"${showUnsafe(text)}" is not a partition: ${issue?.path.join('.') ?? 'name'} ${issue?.message ?? 'is invalid'}`,
      { partition: text },
    );
  }
  return parsed.data;
}

export function formatDesignation(ref: PartitionRef): string {
  switch (ref.kind) {
    case 'user':
      return `user:${ref.org}/${ref.user}`;
    case 'capability':
      return `capability:${ref.org}/${ref.capability}`;
    case 'organizational':
      return `org:${ref.org}`;
  }
}

const FORMS =
  'user:ORG/USER, capability:ORG/NAME, org:ORG, or an object {kind: "user", org, user} / {kind: "capability", org, capability} / {kind: "organizational", org}';

/** Either form, as a zod schema that yields a PartitionRef (used by the wire format and MCP). */
export const PartitionDesignation = z.union(
  [
    PartitionRef,
    z
      .string()
      .max(500)
      .transform((s, ctx) => {
        try {
          return parseDesignation(s);
        } catch (e) {
          ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : String(e) });
          return z.NEVER;
        }
      }),
  ],
  {
    error: (issue) =>
      typeof issue.input === 'string' ? `"${showUnsafe(issue.input.slice(0, 100))}" is not a partition: use ${FORMS}` : `not a partition: use ${FORMS}`,
  },
);
export type PartitionDesignationInput = z.input<typeof PartitionDesignation>;

/** The run-wide designation from flags: --partition, or --org with --user / --capability / --organizational. */
export function designationFromFlags(flags: {
  partition?: string;
  org?: string;
  user?: string;
  capability?: string;
  organizational?: boolean;
}): PartitionRef | undefined {
  if (flags.partition !== undefined) {
    if (flags.org !== undefined || flags.user !== undefined || flags.capability !== undefined || flags.organizational) {
      throw new StatelensError('INVALID_INPUT', 'Give either --partition or --org with --user/--capability/--organizational, not both');
    }
    return parseDesignation(flags.partition);
  }
  const chosen = [flags.user !== undefined, flags.capability !== undefined, Boolean(flags.organizational)].filter(Boolean).length;
  if (flags.org === undefined) {
    if (chosen > 0) throw new StatelensError('INVALID_INPUT', '--user, --capability and --organizational need --org');
    return undefined;
  }
  if (chosen !== 1) throw new StatelensError('INVALID_INPUT', '--org needs exactly one of --user ID, --capability NAME or --organizational');
  return parseInput(
    PartitionRef,
    flags.user !== undefined
      ? { kind: 'user', org: flags.org, user: flags.user }
      : flags.capability !== undefined
        ? { kind: 'capability', org: flags.org, capability: flags.capability }
        : { kind: 'organizational', org: flags.org },
    'partition',
  );
}
