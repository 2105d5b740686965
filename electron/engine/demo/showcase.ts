// The scripted part of the demo: per organisation, a short history that shows every rule the
// engine applies once (authority, proposal, implicit, explicit, temporal and stale writes, a
// correction named by key and by label that flags dependents, constraints of each type, scopes,
// capability levels by maturity). Written before the random activity, at the timeline's start.
import type { PartitionKind } from '../../../shared/domain';
import type { FactWriteInput, SourceInput } from '../../../shared/writes';
import type { Rng } from './prng';
import { slug, type DemoOrg } from './vocabulary';

export interface ShowcaseOp {
  readonly org: string;
  readonly kind: PartitionKind;
  /** User id or capability name; absent for organisational knowledge. */
  readonly subject?: string;
  readonly input: FactWriteInput;
  readonly writer: { readonly source: SourceInput; readonly rank: number };
  /** Keep the fact for later random activity (time-sensitive ones for the temporal rule). */
  readonly remember?: 'yes' | 'time-sensitive';
}

const DAY = 86_400_000;

export function showcaseFor(org: DemoOrg, rng: Rng, startMs: number): ShowcaseOp[] {
  const ops: ShowcaseOp[] = [];
  const cur = org.currency;
  const [employee, manager, executive] = [
    org.users.find((u) => u.authority === 'employee'),
    org.users.find((u) => u.authority === 'manager'),
    org.users.find((u) => u.authority === 'executive'),
  ];
  if (!employee || !manager || !executive) return ops;
  const [city1, city2] = rng.sample(org.cities, 2) as [string, string];
  const [vendor1, vendor2] = rng.sample(org.vendors, 2) as [string, string];
  const project = org.projects[0] ?? 'Atlas';
  const p = slug(project);
  let minute = 0;
  const at = (day: number): string => new Date(startMs + day * DAY + minute++ * 60_000).toISOString();
  const who = (authority: string, identity: string, type = 'user') => ({
    source: { type, identity, authority },
    rank: ({ guest: 10, employee: 20, manager: 30, executive: 40, policy: 50 } as Record<string, number>)[authority] ?? 20,
  });
  const self = who('employee', employee.name);
  const policy = who('policy', 'Policy office', 'policy');
  const finance = who('employee', 'Finance system', 'finance_system');
  const contractor = who('guest', 'Visiting contractor');
  const add = (
    kind: PartitionKind,
    subject: string | undefined,
    writer: ShowcaseOp['writer'],
    input: Omit<FactWriteInput, 'source'>,
    remember?: ShowcaseOp['remember'],
  ): void => {
    ops.push({
      org: org.id,
      kind,
      ...(subject !== undefined ? { subject } : {}),
      writer,
      input: { ...input, source: writer.source },
      ...(remember ? { remember } : {}),
    });
  };
  const u = (writer: ShowcaseOp['writer'], input: Omit<FactWriteInput, 'source'>, remember?: ShowcaseOp['remember']) =>
    add('user', employee.id, writer, input, remember);

  // Authority: a policy overrides the employee's figure; a guest's later figure stays a proposal.
  u(self, { key: 'travel.budget_per_trip', value: `Travel budget is ${cur}4,000 per trip`, ts: at(1) });
  u(policy, { key: 'travel.budget_per_trip', value: `Travel spend must not exceed ${cur}2,500 per trip`, ts: at(2) }, 'yes');
  u(contractor, { key: 'travel.budget_per_trip', value: `Allow ${cur}3,000 for the ${city1} trip`, ts: at(3) });
  // Implicit: same key, conflicting value.
  u(self, { key: 'meeting.weekly_sync.slot', value: 'Tuesday at 14:00', ts: at(2) });
  u(self, { key: 'meeting.weekly_sync.slot', value: 'Thursday at 15:00', ts: at(4) }, 'yes');
  // Explicit: a correction cue.
  u(self, { key: 'home.office', value: `Works from the ${city1} office`, ts: at(2) });
  u(self, { key: 'home.office', value: `Actually moved to the ${city2} office`, ts: at(5) }, 'yes');
  // Temporal: a newer price wins; a late write with an older timestamp is kept as stale.
  const priceKey = `quote.${slug(vendor1)}.${slug(city1)}.price`;
  u(self, { key: priceKey, value: `${cur}18.40 per ${org.unit}`, ts: at(3) });
  u(self, { key: priceKey, value: `${cur}19.10 per ${org.unit}`, ts: at(6) }, 'time-sensitive');
  u(self, { key: priceKey, value: `${cur}17.90 per ${org.unit}`, ts: at(4) });
  // A correction named by key flags the decisions that rested on the old figure (transitively).
  u(finance, { label: 'F-BUDGET', key: `budget.${p}`, value: `${cur}200,000 available for ${project} in Q4`, ts: at(6) });
  u(self, {
    label: 'F-DECISION',
    key: `decision.${p}.purchase`,
    value: `Approved ${cur}150,000 server purchase, ${cur}50,000 remaining`,
    ts: at(7),
    dependsOn: ['F-BUDGET'],
  });
  u(self, { key: `decision.${p}.plan`, value: 'Order the servers in two tranches', ts: at(7), dependsOn: ['F-DECISION'] });
  u(
    finance,
    { label: 'W-AUTO', key: `budget.${p}_corrected`, value: `${cur}120,000 total budget after the CFO reforecast`, ts: at(8), supersedes: `budget.${p}` },
    'yes',
  );
  // A correction named by the source's label.
  u(self, { label: 'F-OWNER', key: 'ticket.T-1.owner', value: `${vendor1} onboarding ticket is owned by Jonas Berg`, ts: at(8) });
  u(self, { key: 'ticket.T-1.owner_corrected', value: `${vendor1} onboarding ticket is owned by Grace Kim`, ts: at(9), supersedes: 'F-OWNER' }, 'yes');
  // Constraints of each type (detected from policy language and the policy source).
  u(policy, { key: 'policy.reporting.quarterly_close', value: 'The quarterly close report is due by Friday 17:00', ts: at(9) }, 'yes');
  u(policy, { key: `policy.offsite.${slug(city2)}`, value: 'The offsite is limited to 12 attendees', ts: at(9) }, 'yes');
  u(policy, { key: 'policy.data.residency', value: 'Customer data must not leave the EU region', ts: at(9) }, 'yes');
  // Scopes.
  u(self, { key: `scenario.${p}.q3`, value: `What if ${project} slipped to Q3? Spend would reach ${cur}260,000`, ts: at(10) });
  u(self, { key: `shortlist.${p}`, value: `Draft shortlist for ${project}: ${vendor1} and ${vendor2}`, ts: at(10) });
  u(self, {
    key: 'review.vendor_review.criteria',
    value: `Compare only vendors with sites in ${city2}`,
    ts: at(10),
    scope: 'task',
    scopeId: 'task-vendor-review',
  });
  u(self, { key: 'session.note.1', value: 'Keep answers under five bullet points', ts: at(10), scope: 'session', scopeId: 'session-1' });
  u(self, { key: 'preference.communication', value: `Prefers ${employee.style}`, ts: at(10) }, 'yes');

  // A manager's figure, overridden by the executive; an employee's later figure is a proposal.
  const m = (writer: ShowcaseOp['writer'], input: Omit<FactWriteInput, 'source'>, remember?: ShowcaseOp['remember']) =>
    add('user', manager.id, writer, input, remember);
  m(who('manager', manager.name), { key: 'team.headcount', value: `12 people in ${manager.department}`, ts: at(3) });
  m(who('executive', executive.name), { key: 'team.headcount', value: 'Headcount frozen at 10 until Q2', ts: at(5) }, 'yes');
  m(who('employee', employee.name), { key: 'team.headcount', value: `14 people once ${org.projects[1] ?? project} starts`, ts: at(6) });
  add('user', executive.id, who('executive', executive.name), { key: `priority.${p}`, value: `${project} is the first priority this half`, ts: at(4) }, 'yes');

  // Capability levels by maturity.
  for (const cap of org.capabilities) {
    const agent = { source: { type: 'observation', identity: `${cap.name} agent` }, rank: 20 };
    const c = (input: Omit<FactWriteInput, 'source'>, type = 'observation') =>
      add('capability', cap.name, { ...agent, source: { ...agent.source, type } }, input);
    c({
      key: `event.${slug(cap.name)}.first`,
      value: (cap.events[0] ?? '').replace(/\{\w+\}/g, (t) => (t === '{city}' ? city1 : t === '{vendor}' ? vendor1 : t === '{n}' ? '3' : 'X-1')),
      level: 'event',
      ts: at(11),
    });
    if (cap.maturity !== 'junior') {
      const text = (cap.heuristics[0] ?? '').replace(/\{\w+\}/g, (t) => (t === '{city}' ? city1 : t === '{vendor}' ? vendor1 : t === '{city2}' ? city2 : '6'));
      c({ key: `heuristic.${slug(cap.name)}.main`, value: text, level: 'heuristic', ts: at(12) }, 'pattern');
      c({ key: `heuristic.${slug(cap.name)}.main`, value: `Actually, ${text.replace(city1, city2)}`, level: 'heuristic', ts: at(14) }, 'pattern');
    }
    if (cap.maturity === 'master') {
      c(
        {
          key: `strategy.${slug(cap.name)}.main`,
          value: (cap.strategies[0] ?? '').replace(/\{\w+\}/g, (t) => (t === '{city}' ? city1 : '30')),
          level: 'strategy',
          ts: at(15),
        },
        'strategy',
      );
    }
  }

  // Organisational knowledge: policies, a system fact a policy overrides, a guest's proposal.
  const o = (writer: ShowcaseOp['writer'], input: Omit<FactWriteInput, 'source'>, remember?: ShowcaseOp['remember']) =>
    add('organizational', undefined, writer, input, remember);
  o(policy, { key: 'policy.travel.per_trip', value: `Travel spend must not exceed ${cur}2,500 per trip`, ts: at(1) }, 'yes');
  o(
    policy,
    {
      key: `policy.purchasing.${p}`,
      value: `Purchases above ${cur}50,000 are not allowed without CFO sign-off`,
      ts: at(1),
      isConstraint: true,
      constraintType: 'budget',
    },
    'yes',
  );
  o(who('employee', 'HR system', 'hr_system'), { key: 'org.remote_work.days', value: 'Three remote days a week', ts: at(2) });
  o(policy, { key: 'org.remote_work.days', value: 'Remote work is limited to two days a week', ts: at(4) }, 'yes');
  o(contractor, { key: 'org.remote_work.days', value: 'Four remote days a week for contractors', ts: at(5) });
  o(
    who('employee', 'HR system', 'hr_system'),
    { key: `org.department.${slug(executive.department)}.head`, value: `${executive.name} leads the department`, ts: at(2) },
    'yes',
  );
  return ops;
}
