// The demo-data generator: realistic enterprise memory for three organisations (users,
// capabilities, organisational knowledge) at any size, deterministic for a seed. A scripted
// showcase per organisation shows every rule once; seeded random agent activity fills the rest.
// Facts are written through the engine's batched write path, one transaction per batch.
import type { Identity, Scope, SupersessionRule } from '../../../shared/domain';
import { StatelensError } from '../../../shared/errors';
import type { FactWriteInput, SourceInput, WriteOutcome, WriteResult } from '../../../shared/writes';
import { FactWriteBatch } from '../facts/write';
import type { PartitionHandle } from '../partition-handle';
import type { Store } from '../store';
import { planWeb, webBudget, webWrite } from './dependencies';
import { Rng } from './prng';
import { showcaseFor, type ShowcaseOp } from './showcase';
import {
  CONSTRAINTS,
  CORRECTIONS,
  fill,
  MONTHS,
  ORG_TEMPLATES,
  ORGS,
  slug,
  USER_TEMPLATES,
  type DemoCapability,
  type DemoOrg,
  type DemoUser,
  type FactTemplate,
} from './vocabulary';

export interface DemoOptions {
  /** Number of facts (rows) to create. */
  readonly facts: number;
  readonly seed?: string | number;
  /** Facts per transaction (default 10,000). */
  readonly batchSize?: number;
  readonly onProgress?: (done: number, total: number) => void;
  /** The first timestamp of the generated history (default: `days` before the end, which is an
   * hour before the store's clock at generation, so the history ends in the past and recency
   * means something when the demo is read). */
  readonly start?: string;
  /** How long the generated history spans, in days (default 365). */
  readonly days?: number;
}

export interface DemoStats {
  facts: number;
  writes: number;
  partitions: number;
  orgs: number;
  users: number;
  capabilities: number;
  documents: number;
  workingItems: number;
  environmentSignals: number;
  savedQueries: number;
  agentStates: number;
  contextDocuments: number;
  outcomes: Record<WriteOutcome, number>;
  /** Supersessions, proposals and stale writes by the rule that decided them. */
  rules: Record<SupersessionRule, number>;
  /** needs_review flags raised by supersessions (a fact flagged twice counts twice). */
  flagged: number;
  seconds: number;
}

const MAX_FACTS = 50_000_000;
const RING = 2048;
const DAY = 86_400_000;

/** Who wrote a fact, and how much their word weighs (the engine's authority ranks). */
interface Writer {
  readonly source: SourceInput;
  readonly rank: number;
}

/** A fact the generator may come back to: update, correct, override or depend on. Facts
 * without a template (the showcase's, decisions, constraints) are only depended on or met
 * with proposals, so the showcase stays as scripted and its saved queries keep their answers. */
interface Entry {
  key: string;
  id: string;
  writer: Writer;
  ts: string;
  readonly timeSensitive: boolean;
  readonly template: FactTemplate | null;
  readonly level?: 'heuristic' | 'strategy';
  readonly constraintIndex?: number;
}

interface Slot {
  readonly org: DemoOrg;
  readonly handle: PartitionHandle;
  readonly kind: 'user' | 'capability' | 'organizational';
  readonly user?: DemoUser;
  readonly capability?: DemoCapability;
  readonly ring: Entry[];
  counter: number;
  batch: FactWriteBatch | null;
}

const RANK: Readonly<Record<string, number>> = { guest: 10, employee: 20, manager: 30, executive: 40, policy: 50 };

function writerFor(authority: string, identity: string, type = 'user'): Writer {
  return { source: { type, identity, authority }, rank: RANK[authority] ?? 20 };
}

const POLICY_WRITER: Writer = writerFor('policy', 'Policy office', 'policy');

function emptyCounts<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
}

/** An hour before the store's clock, to the minute, less the span: every generated time (fact,
 * signal, working item) is then in the past when generation ends. */
function defaultStart(store: Store, spanMs: number): number {
  const now = Date.parse(store.services.clock.now());
  const end = Math.floor(now / 60_000) * 60_000 - 3_600_000;
  return end - spanMs;
}

export function generateDemo(store: Store, options: DemoOptions): DemoStats {
  const total = options.facts;
  if (!Number.isInteger(total) || total < 0 || total > MAX_FACTS) {
    throw new StatelensError('INVALID_INPUT', `The number of demo facts must be a whole number from 0 to ${MAX_FACTS.toLocaleString('en-US')}, got ${total}`);
  }
  const batchSize = Math.max(1, Math.min(options.batchSize ?? 10_000, 1_000_000));
  const spanMs = Math.max(1, options.days ?? 365) * DAY;
  const startMs = options.start !== undefined ? Date.parse(options.start) : defaultStart(store, spanMs);
  if (Number.isNaN(startMs)) throw new StatelensError('INVALID_INPUT', `Not a timestamp: ${options.start}`);
  const started = performance.now();
  const rng = new Rng(options.seed ?? 'statelens');
  const stats: DemoStats = {
    facts: 0,
    writes: 0,
    partitions: 0,
    orgs: ORGS.length,
    users: 0,
    capabilities: 0,
    documents: 0,
    workingItems: 0,
    environmentSignals: 0,
    savedQueries: 0,
    agentStates: 0,
    contextDocuments: 0,
    outcomes: emptyCounts(['created', 'superseded', 'proposal', 'stale', 'duplicate'] as const),
    rules: emptyCounts(['explicit', 'implicit', 'authority', 'temporal'] as const),
    flagged: 0,
    seconds: 0,
  };

  const slots: Slot[] = [];
  const partitionIds: number[] = [];
  const endIso = new Date(startMs + spanMs).toISOString();
  store.write(partitionIds, 'demo data', () => {
    for (const org of ORGS) {
      const orgSlot = addSlot(store, slots, partitionIds, org, { kind: 'organizational', org: org.id });
      for (const doc of org.documents) orgSlot.handle.putDocument({ title: doc.title, body: doc.body, acl: [...doc.acl] });
      stats.documents += org.documents.length;
      for (const user of org.users) {
        const slot = addSlot(store, slots, partitionIds, org, { kind: 'user', org: org.id, user: user.id }, { user });
        setUpUser(slot, user, org, rng, total, startMs, spanMs, stats);
        stats.users++;
      }
      for (const capability of org.capabilities) {
        addSlot(store, slots, partitionIds, org, { kind: 'capability', org: org.id, capability: capability.name }, { capability });
        stats.capabilities++;
      }
    }
  });
  stats.partitions = slots.length;

  const showcase = interleave(ORGS.map((org) => showcaseFor(org, rng, startMs)));
  const bulkStart = startMs + 21 * DAY;
  const step = Math.max(1, Math.floor((spanMs - 21 * DAY) / Math.max(total, 1)));
  const slotOf = (op: ShowcaseOp): Slot => {
    const found = slots.find(
      (s) => s.org.id === op.org && s.kind === op.kind && (op.subject === undefined || s.user?.id === op.subject || s.capability?.name === op.subject),
    );
    if (!found) throw new StatelensError('INTERNAL', `Demo showcase names an unknown partition ${op.org}/${op.kind}/${op.subject ?? ''}`);
    return found;
  };
  const weights = slots.map((s) => [s, s.kind === 'user' ? 6 : s.kind === 'capability' ? 1.5 : 2] as const);

  // The dependency web, spread over the year between the random activity.
  const webOrg = ORGS[0];
  const webSlot = webOrg ? slots.find((s) => s.org.id === webOrg.id && s.kind === 'organizational') : undefined;
  const web = webOrg && webSlot ? planWeb(webOrg, webBudget(total)) : [];
  const webRng = new Rng(`${String(options.seed ?? 'statelens')}:dependencies`);
  const webIds = new Map<string, string>();
  const webStride = Math.max(1, Math.floor((total - showcase.length) / (web.length + 1)));
  let webAt = 0;

  let showcaseAt = 0;
  let tick = 0;
  while (stats.facts < total) {
    const target = Math.min(total, stats.facts + batchSize);
    store.write(partitionIds, 'demo data', () => {
      const open: Slot[] = [];
      const write = (slot: Slot, input: FactWriteInput): WriteResult => {
        if (!slot.batch) {
          slot.batch = new FactWriteBatch(slot.handle.ctx);
          open.push(slot);
        }
        const r = slot.batch.write(input);
        account(stats, r);
        return r;
      };
      while (stats.facts < target) {
        if (showcaseAt < showcase.length) {
          const op = showcase[showcaseAt++] as ShowcaseOp;
          const slot = slotOf(op);
          const r = write(slot, op.input);
          if (op.remember && r.outcome !== 'duplicate' && r.outcome !== 'proposal' && r.outcome !== 'stale') {
            remember(slot, rng, {
              key: op.input.key,
              id: r.factId,
              writer: op.writer,
              ts: op.input.ts ?? endIso,
              timeSensitive: op.remember === 'time-sensitive',
              template: null,
            });
          }
          continue;
        }
        if (webSlot && webAt < web.length && tick % webStride === 0) {
          const f = web[webAt++];
          const ts = new Date(bulkStart + tick++ * step).toISOString();
          if (f) {
            const r = write(webSlot, webWrite(f, webRng, ts, webIds));
            if (r.outcome !== 'duplicate') webIds.set(f.key, r.factId);
          }
          continue;
        }
        const slot = rng.weighted(weights);
        const ts = new Date(bulkStart + tick++ * step + rng.int(0, Math.max(0, Math.floor(step / 2)))).toISOString();
        bulkOp(slot, rng, ts, write);
      }
      for (const slot of open) {
        slot.batch?.flush();
        slot.batch = null;
      }
    });
    options.onProgress?.(stats.facts, total);
  }
  stats.seconds = (performance.now() - started) / 1000;
  return stats;
}

function addSlot(
  store: Store,
  slots: Slot[],
  partitionIds: number[],
  org: DemoOrg,
  ref: Parameters<Store['scope']>[0],
  extra: { user?: DemoUser; capability?: DemoCapability } = {},
): Slot {
  let handle = store.scope(ref, { create: true });
  if (extra.capability && extra.capability.maturity !== handle.ctx.maturity) {
    // The demo seeds its agents' tiers the way an administrator would: one audited change each.
    store.setMaturity(handle.id, extra.capability.maturity, { actor: 'demo', reason: 'seeded demo agent tier' });
    handle = store.scopeById(handle.id);
  }
  partitionIds.push(handle.id);
  const slot: Slot = { org, handle, kind: ref.kind, ring: [], counter: 0, batch: null, ...extra };
  slots.push(slot);
  return slot;
}

function account(stats: DemoStats, r: WriteResult): void {
  stats.writes++;
  stats.outcomes[r.outcome]++;
  if (r.outcome !== 'duplicate') stats.facts++;
  if (r.rule && r.outcome !== 'created' && r.outcome !== 'duplicate') stats.rules[r.rule]++;
  stats.flagged += r.flagged.length;
}

function remember(slot: Slot, rng: Rng, entry: Entry): void {
  if (slot.ring.length < RING) slot.ring.push(entry);
  else slot.ring[rng.int(0, RING - 1)] = entry;
}

function findEntry(slot: Slot, rng: Rng, accept: (e: Entry) => boolean): Entry | undefined {
  if (slot.ring.length === 0) return undefined;
  for (let i = 0; i < 6; i++) {
    const e = rng.pick(slot.ring);
    if (accept(e)) return e;
  }
  return undefined;
}

function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const out: T[] = [];
  const longest = Math.max(0, ...lists.map((l) => l.length));
  for (let i = 0; i < longest; i++) for (const l of lists) if (i < l.length) out.push(l[i] as T);
  return out;
}

function selfWriter(slot: Slot): Writer {
  const u = slot.user;
  return u ? writerFor(u.authority, u.name) : writerFor('employee', 'Operations desk');
}

function higherWriter(slot: Slot, rng: Rng, above: number): Writer | undefined {
  const boss = (authority: 'manager' | 'executive') => slot.org.users.find((u) => u.authority === authority);
  const options: Writer[] = [];
  const manager = boss('manager');
  const executive = boss('executive');
  if (above < 30 && manager) options.push(writerFor('manager', manager.name));
  if (above < 40 && executive) options.push(writerFor('executive', executive.name));
  if (options.length === 0 && above < 50) options.push(POLICY_WRITER);
  return options.length > 0 ? rng.pick(options) : undefined;
}

type Write = (slot: Slot, input: FactWriteInput) => WriteResult;

/** One step of simulated agent activity in a partition. */
function bulkOp(slot: Slot, rng: Rng, ts: string, write: Write): void {
  if (slot.kind === 'capability') return capabilityOp(slot, rng, ts, write);
  const templates = slot.kind === 'user' ? USER_TEMPLATES : ORG_TEMPLATES;
  const op = rng.weighted([
    ['create', 62],
    ['implicit', 8],
    ['explicit', 4],
    ['authority', 3],
    ['proposal', 2],
    ['temporal', slot.kind === 'user' ? 4 : 0],
    ['stale', slot.kind === 'user' ? 1 : 0],
    ['named', 3],
    ['derived', 1.5],
    ['scoped', slot.kind === 'user' ? 5 : 0],
    ['constraint', slot.kind === 'user' ? 2 : 12],
  ] as const);
  const org = slot.org;
  const update = (e: Entry, input: FactWriteInput, writer: Writer, keepEntry = false): void => {
    const r = write(slot, input);
    if (!keepEntry && r.supersededId !== null) {
      e.id = r.factId;
      e.key = input.key;
      e.ts = input.ts ?? e.ts;
      e.writer = writer;
    }
  };
  const valueOf = (e: Entry): string => (e.template ? e.template.value(rng, org) : (CONSTRAINTS[e.constraintIndex ?? -1]?.value(rng, org) ?? e.key));
  switch (op) {
    case 'implicit': {
      const e = findEntry(slot, rng, (x) => !x.timeSensitive && x.template !== null);
      if (!e) break;
      return update(e, { key: e.key, value: valueOf(e), source: e.writer.source, ts }, e.writer);
    }
    case 'explicit': {
      const e = findEntry(slot, rng, (x) => x.template !== null);
      if (!e) break;
      return update(e, { key: e.key, value: `${rng.pick(CORRECTIONS)}${valueOf(e)}`, source: e.writer.source, ts }, e.writer);
    }
    case 'authority': {
      const e = findEntry(slot, rng, (x) => x.template !== null && x.writer.rank < 40);
      const w = e && higherWriter(slot, rng, e.writer.rank);
      if (!e || !w) break;
      return update(e, { key: e.key, value: valueOf(e), source: w.source, ts }, w);
    }
    case 'proposal': {
      const e = findEntry(slot, rng, (x) => (x.template !== null || x.constraintIndex !== undefined) && x.writer.rank > 10);
      if (!e) break;
      write(slot, { key: e.key, value: valueOf(e), source: { type: 'user', identity: 'Visiting contractor', authority: rng.pick(['guest', 'intern']) }, ts });
      return;
    }
    case 'temporal':
    case 'stale': {
      const e = findEntry(slot, rng, (x) => x.timeSensitive && x.template !== null);
      if (!e) break;
      if (op === 'temporal') return update(e, { key: e.key, value: valueOf(e), source: e.writer.source, ts }, e.writer);
      const older = new Date(Date.parse(e.ts) - rng.int(1, 72) * 3_600_000).toISOString();
      write(slot, { key: e.key, value: valueOf(e), source: e.writer.source, ts: older });
      return;
    }
    case 'named': {
      const e = findEntry(slot, rng, (x) => x.template !== null && !x.key.endsWith('_corrected'));
      if (!e) break;
      const renamed = rng.chance(0.5);
      return update(
        e,
        {
          key: renamed ? `${e.key}_corrected` : e.key,
          value: valueOf(e),
          source: e.writer.source,
          ts,
          supersedes: rng.chance(0.7) ? e.key : e.id,
          label: 'W-AUTO',
        },
        e.writer,
      );
    }
    case 'derived': {
      const deps = [findEntry(slot, rng, () => true), findEntry(slot, rng, () => true)].filter((e): e is Entry => e !== undefined);
      if (deps.length === 0) break;
      const project = rng.pick(org.projects);
      const n = ++slot.counter;
      const writer = selfWriter(slot);
      const r = write(slot, {
        key: `decision.${slug(project)}.${n}`,
        value: `Go ahead with ${rng.pick(org.vendors)} for ${project} on the terms recorded so far`,
        source: writer.source,
        ts,
        dependsOn: [...new Set(deps.map((d) => d.id))],
      });
      if (r.outcome === 'created')
        remember(slot, rng, { key: `decision.${slug(project)}.${n}`, id: r.factId, writer, ts, timeSensitive: false, template: null });
      return;
    }
    case 'scoped': {
      write(slot, scopedFact(slot, rng, ts));
      return;
    }
    case 'constraint': {
      const index = rng.int(0, CONSTRAINTS.length - 1);
      const c = CONSTRAINTS[index] as (typeof CONSTRAINTS)[number];
      const key = c.key(rng, org);
      const stated = rng.chance(0.5);
      const r = write(slot, {
        key,
        value: c.value(rng, org),
        source: POLICY_WRITER.source,
        ts,
        ...(stated ? { isConstraint: true, constraintType: c.type } : {}),
      });
      if (r.outcome === 'created')
        remember(slot, rng, { key, id: r.factId, writer: POLICY_WRITER, ts, timeSensitive: false, template: null, constraintIndex: index });
      return;
    }
    case 'create':
      break;
  }
  // create (and the fallback when no earlier fact suits the chosen step)
  const template = rng.weighted(templates.map((t) => [t, t.weight ?? 1] as const));
  const writer = slot.kind === 'user' && rng.chance(0.8) ? selfWriter(slot) : writerFor('employee', `${rng.pick(slot.org.tools)} sync`, 'system');
  const key = template.key(rng, org, ++slot.counter);
  const r = write(slot, { key, value: template.value(rng, org), source: writer.source, ts });
  if (r.outcome === 'created' || r.outcome === 'superseded')
    remember(slot, rng, { key, id: r.factId, writer, ts, timeSensitive: template.timeSensitive, template });
}

function scopedFact(slot: Slot, rng: Rng, ts: string): FactWriteInput {
  const org = slot.org;
  const project = rng.pick(org.projects);
  const source = selfWriter(slot).source;
  const n = ++slot.counter;
  const kind: Scope = rng.weighted([
    ['hypothetical', 3],
    ['draft', 3],
    ['task', 3],
    ['session', 2],
  ] as const);
  switch (kind) {
    case 'hypothetical':
      return {
        key: `scenario.${slug(project)}.${n}`,
        value: `What if ${project} slipped to ${rng.pick(MONTHS)}? Spend would reach ${org.currency}${rng.int(150, 900)},000`,
        source,
        ts,
      };
    case 'draft':
      return { key: `shortlist.${slug(project)}.${n}`, value: `Draft shortlist for ${project}: ${rng.sample(org.vendors, 2).join(' and ')}`, source, ts };
    case 'task':
      return {
        key: `review.${slug(rng.pick(org.topics))}.criteria`,
        value: `Compare only vendors with sites in ${rng.pick(org.cities)}`,
        source,
        ts,
        scope: 'task',
        scopeId: `task-${rng.int(1, 20)}`,
      };
    default:
      return {
        key: `session.note.${n}`,
        value: rng.pick(['Keep answers under five bullet points', 'Use the figures from the last board pack', 'Answer in the user\u2019s timezone']),
        source,
        ts,
        scope: 'session',
        scopeId: `session-${rng.int(1, 5)}`,
      };
  }
}

function capabilityOp(slot: Slot, rng: Rng, ts: string, write: Write): void {
  const cap = slot.capability as DemoCapability;
  const org = slot.org;
  const allowed: Array<readonly ['event' | 'heuristic' | 'strategy', number]> = [['event', 70]];
  if (cap.maturity !== 'junior') allowed.push(['heuristic', 20]);
  if (cap.maturity === 'master') allowed.push(['strategy', 10]);
  const level = rng.weighted(allowed);
  const n = ++slot.counter;
  const code = `${slug(cap.name).slice(0, 3).toUpperCase()}-${20000 + n}`;
  if (level === 'event') {
    write(slot, {
      key: `event.${code}`,
      value: fill(rng, org, rng.pick(cap.events), code),
      source: { type: 'observation', identity: `${cap.name} agent` },
      ts,
      level: 'event',
    });
    return;
  }
  const texts = level === 'heuristic' ? cap.heuristics : cap.strategies;
  const index = rng.int(0, texts.length - 1);
  const key = `${level}.${slug(
    (texts[index] ?? '')
      .split(' ')
      .slice(0, 4)
      .join(' ')
      .replace(/\{\w+\}/g, 'x'),
  )}`;
  const correct = rng.chance(0.15);
  const value = `${correct ? rng.pick(CORRECTIONS) : ''}${fill(rng, org, texts[index] ?? '', code)}`;
  write(slot, { key, value, source: { type: level === 'heuristic' ? 'pattern' : 'strategy', identity: `${cap.name} agent` }, ts, level });
}

function setUpUser(slot: Slot, user: DemoUser, org: DemoOrg, rng: Rng, total: number, startMs: number, spanMs: number, stats: DemoStats): void {
  const h = slot.handle;
  const identity: Identity = {
    userName: user.name,
    userId: user.id,
    authority: user.authority,
    department: user.department,
    organization: org.name,
    permissions: [...user.permissions],
    communicationStyle: user.style,
  };
  h.setIdentity(identity);
  const end = startMs + spanMs;
  const iso = (ms: number): string => new Date(ms).toISOString();
  const signals = [
    { key: 'now', value: iso(end), observedAt: iso(end) },
    { key: 'timezone', value: user.timezone, observedAt: iso(startMs) },
    { key: 'calendar', value: `${rng.pick(org.topics)} on ${rng.pick(['Tuesday', 'Thursday'])} at ${rng.int(9, 16)}:00`, observedAt: iso(end - 2 * 3_600_000) },
    { key: 'alert', value: `${rng.pick(org.vendors)} reports delays in ${rng.pick(org.cities)}`, observedAt: iso(end - 30 * 60_000) },
    { key: 'deadline', value: `${rng.pick(org.projects)} review on ${rng.int(1, 28)} ${rng.pick(MONTHS)}`, observedAt: iso(end - DAY) },
  ];
  h.setEnvironment(signals);
  stats.environmentSignals += signals.length;

  const turns = Math.max(6, Math.min(400, Math.round(total / 200 / 5)));
  const items = [];
  const project = rng.pick(org.projects);
  const vendor = rng.pick(org.vendors);
  const lines = [
    ['user', `Can you check where we are on ${project}?`],
    ['assistant', `${project}: the next step is the ${vendor} quote; I have the figures from last week.`],
    ['user', `Remind me what ${vendor} charged per ${org.unit} last time.`],
    ['assistant', `The last quote from ${vendor} is in memory; I will use the current one, not the superseded one.`],
    ['user', 'Draft a short note for the team, keep it to five bullets.'],
    ['assistant', 'Here is a five-bullet note for the team.'],
  ] as const;
  for (let i = 0; i < turns; i++) {
    const [speaker, text] = lines[i % lines.length] as (typeof lines)[number];
    items.push({
      sessionId: `session-${1 + Math.floor(i / 6)}`,
      key: `turn:${i}`,
      value: text,
      itemType: 'turn',
      speaker,
      turnIndex: i,
      createdAt: iso(end - (turns - i) * 5 * 60_000),
    });
  }
  items.push({
    sessionId: 'session-1',
    key: 'scratch:open_question',
    value: `Waiting for ${vendor} to confirm the ${project} terms`,
    itemType: 'context',
    createdAt: iso(end - 3_600_000),
    expiresAt: iso(end + 7 * DAY),
  });
  items.push({
    sessionId: 'session-1',
    key: 'scratch:expired',
    value: 'Hold the 10:00 slot for the vendor call',
    itemType: 'context',
    createdAt: iso(end - 3 * DAY),
    expiresAt: iso(end - 2 * DAY),
  });
  h.addWorkingItems(items);
  stats.workingItems += items.length;

  // The showcase history is written for the org's first employee; their queries test it.
  const showcased = org.users.find((u) => u.authority === 'employee')?.id === user.id;
  const queries = showcased
    ? [
        { label: 'Q0', prompt: 'What is the travel budget per trip?', groundTruth: { must_mention: ['2,500'], must_not_mention: ['4,000', '3,000'] } },
        { label: 'Q1', prompt: 'When is the weekly sync?', groundTruth: { must_mention: ['Thursday'], must_not_mention: ['Tuesday'] } },
        {
          label: 'Q2',
          prompt: `What budget is left for ${org.projects[0] ?? ''}?`,
          groundTruth: { must_mention: ['120,000'], must_not_mention: ['200,000', '50,000 remaining'] },
        },
      ]
    : [{ label: 'Q0', prompt: `What should I know before the next ${project} meeting?`, groundTruth: null }];
  for (const q of queries) h.saveQuery({ ...q, ts: iso(end) });
  stats.savedQueries += queries.length;

  const session = 'session-1';
  h.applyAgentStateUpdate(session, {
    current_understanding: {
      entities: [
        { id: slug(project), kind: 'project', name: project },
        { id: slug(vendor), kind: 'vendor', name: vendor },
        { id: slug(user.name), kind: 'person', name: user.name },
      ],
      dependencies: [{ from: slug(project), to: slug(vendor), rel: 'depends on quote from' }],
    },
    assumptions: [
      {
        id: 'asm-budget',
        hypothesis: `${project} budget is the corrected figure, not the original`,
        confidence: 0.9,
        evidence: ['budget correction in memory'],
      },
      { id: 'asm-style', hypothesis: `${user.name.split(' ')[0]} wants ${user.style}`, confidence: 0.7 },
    ],
    expectations: [
      { id: 'exp-quote', action: `request quote from ${vendor}`, expected_outcome: 'one quote document returned', expected_type: 'quote' },
      {
        id: 'exp-orders',
        action: `list open purchase orders for ${project}`,
        expected_outcome: 'the two known orders',
        expected_ids: ['PO-50001', 'PO-50002'],
      },
      { id: 'exp-sites', action: 'count active sites', expected_outcome: `${org.cities.length} sites`, expected_count: org.cities.length },
    ],
    tentative_hypotheses: [{ id: 'hyp-delay', hypothesis: `${vendor} delays come from the ${rng.pick(org.cities)} hub`, reason: 'two alerts in a week' }],
    items: [
      { op: 'add', item: { id: 'item-note', kind: 'task', title: `Send the ${project} status note`, status: 'active' } },
      { op: 'add', item: { id: 'item-doc', kind: 'doc', title: `${vendor} contract summary`, status: 'active', relatedEntityIds: [slug(vendor)] } },
      { op: 'add', item: { id: 'item-q', kind: 'question', title: 'Is the offsite still limited to 12 attendees?', status: 'resolved' } },
    ],
  });
  h.verifyExpectation(session, 'exp-quote', { id: 'tool-1', types: ['quote'], summary: 'one quote returned' });
  h.verifyExpectation(session, 'exp-orders', { id: 'tool-2', ids: ['PO-50001'], summary: 'only one open order returned' });
  stats.agentStates++;

  const doc = (extra: string): string =>
    [
      '## Facts',
      `- ${user.name} works in ${user.department} at ${org.name}.`,
      `- ${project} depends on the ${vendor} quote.${extra}`,
      '## Timeline',
      `- ${iso(startMs).slice(0, 10)}: first session.`,
      `- ${iso(end).slice(0, 10)}: latest session.`,
      '## Entities',
      `- ${project} (project), ${vendor} (vendor)`,
      '## Preferences',
      `- Prefers ${user.style}.`,
      '## Notes',
      '- Superseded figures are kept out of this document.',
    ].join('\n');
  h.putContextDocument(session, doc(''));
  h.putContextDocument(session, doc(` The budget figure is the corrected one.`));
  stats.contextDocuments += 2;
}
