// The inference rules for what a write leaves unspecified, one test per rule: memory type from
// the source, scope from cue phrases, constraints (and their type) from policy language and
// policy sources. Each rule is checked as a pure function and through a real write.
import { expect, it } from 'vitest';
import { describeStores } from '../../../test/helpers/stores';
import { inferConstraintType, inferMemoryType, inferScope, inferTimeSensitive, looksLikeConstraint } from './inference';

const user = { kind: 'user', org: 'acme', user: 'u1' } as const;

describeStores('memory type inference', (openStore) => {
  it('is organizational for policy and system sources', () => {
    for (const source of ['policy', 'system', 'finance_system', 'hr_system', 'Policy', 'crm_system']) {
      expect(inferMemoryType(source), source).toBe('organizational');
    }
  });

  it('is capability for observations, patterns and heuristics', () => {
    for (const source of ['observation', 'pattern', 'heuristic']) expect(inferMemoryType(source), source).toBe('capability');
  });

  it('is user otherwise (decisions, preferences, the user, conversation, unknown sources)', () => {
    for (const source of ['user', 'decision', 'preference', 'conversation', 'state_write', 'email']) {
      expect(inferMemoryType(source), source).toBe('user');
    }
  });

  it('is applied to a write that leaves it out, and a stated memory type wins', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const typeOf = (id: string): string | undefined => p.getFact(id)?.memoryType;
    expect(typeOf(p.writeFact({ key: 'travel_cap', value: 'Economy only', source: { type: 'policy' } }).factId)).toBe('organizational');
    expect(typeOf(p.writeFact({ key: 'payroll_day', value: 'the 25th', source: { type: 'hr_system' } }).factId)).toBe('organizational');
    expect(typeOf(p.writeFact({ key: 'retry_hint', value: 'retry after 5s', source: { type: 'heuristic' } }).factId)).toBe('capability');
    expect(typeOf(p.writeFact({ key: 'seen', value: 'builds fail on Mondays', source: { type: 'observation' } }).factId)).toBe('capability');
    expect(typeOf(p.writeFact({ key: 'seat', value: 'aisle', source: { type: 'preference' } }).factId)).toBe('user');
    expect(typeOf(p.writeFact({ key: 'colour', value: 'blue' }).factId)).toBe('user');
    expect(typeOf(p.writeFact({ key: 'rule', value: 'x', source: { type: 'policy' }, memoryType: 'user' }).factId)).toBe('user');
    store.close();
  });
});

describeStores('scope inference from cues', (openStore) => {
  it('"what if" and "hypothetically" make a fact hypothetical', () => {
    expect(inferScope('What if we moved the launch to May?')).toBe('hypothetical');
    expect(inferScope('Hypothetically, the budget could be $2M')).toBe('hypothetical');
    expect(inferScope('hypothetically speaking we hire two')).toBe('hypothetical');
    // Speculation: "in theory", and a condition followed by what we could or would do.
    expect(inferScope('Theoretically, $40 is possible for 5000 units')).toBe('hypothetical');
    expect(inferScope('If they bought 1000 units, we could maybe do $45 each')).toBe('hypothetical');
    expect(inferScope('If you can, send the report by Friday')).toBe('global');
    expect(inferScope('We could ship on Friday')).toBe('global');
  });

  it('"draft", "proposal" and "tentative" make a fact a draft', () => {
    expect(inferScope('Draft: Q3 budget of $120k')).toBe('draft');
    expect(inferScope('Proposal - move standup to 10am')).toBe('draft');
    expect(inferScope('tentative date is March 3')).toBe('draft');
  });

  it('"for this task" makes a fact task-scoped', () => {
    expect(inferScope('Use the staging cluster for this task')).toBe('task');
  });

  it('is global without a cue (words that merely contain a cue do not count)', () => {
    expect(inferScope('The budget is $200k')).toBe('global');
    expect(inferScope('The drafts folder is shared')).toBe('global');
    expect(inferScope('task list is in Jira')).toBe('global');
  });

  it('is applied to a write that leaves it out; a stated scope wins; scoped facts do not replace global ones', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const scopeOf = (id: string): string | undefined => p.getFact(id)?.scope;
    const global = p.writeFact({ key: 'budget', value: '$200k' });
    const hypo = p.writeFact({ key: 'budget', value: 'what if it were $300k' });
    const draft = p.writeFact({ key: 'budget', value: 'draft: $250k' });
    const task = p.writeFact({ key: 'budget', value: '$10k for this task', scopeId: 'T-7' });
    expect([global, hypo, draft, task].map((r) => scopeOf(r.factId))).toEqual(['global', 'hypothetical', 'draft', 'task']);
    expect(p.getFact(task.factId)?.scopeId).toBe('T-7');
    for (const r of [hypo, draft, task]) expect(r.outcome).toBe('created');
    expect(p.currentValue('budget')).toBe('$200k');
    expect(scopeOf(p.writeFact({ key: 'plan', value: 'what if we pivot', scope: 'global' }).factId)).toBe('global');
    store.close();
  });
});

describeStores('constraint detection', (openStore) => {
  it('recognises policy language in any source, and every fact from a policy source', () => {
    for (const text of [
      'Spend must not exceed $50k',
      'Contractors may not access production',
      'Maximum 12 attendees',
      'Report due by Friday',
      'no more than 3 servers',
      'Approval is required for travel',
    ]) {
      expect(looksLikeConstraint(text, 'user'), text).toBe(true);
    }
    expect(looksLikeConstraint('Offices close on public holidays', 'policy')).toBe(true);
    expect(looksLikeConstraint('Offices close on public holidays', 'user')).toBe(false);
    expect(looksLikeConstraint('I like the blue logo', 'user')).toBe(false);
  });

  it('types a constraint as budget, deadline, capacity or policy', () => {
    expect(inferConstraintType('Spend must not exceed $50k')).toBe('budget');
    // A percentage cap limits a rate, not money, a date or a count: a pricing policy.
    expect(inferConstraintType('discount: max discount is 15%')).toBe('policy');
    expect(inferConstraintType('policy max 15%')).toBe('policy');
    expect(inferConstraintType('Report due by Friday')).toBe('deadline');
    expect(inferConstraintType('Submit no later than March 3')).toBe('deadline');
    expect(inferConstraintType('Room capacity is at most 40 attendees')).toBe('capacity');
    expect(inferConstraintType('headcount capped at 12')).toBe('capacity');
    expect(inferConstraintType('Contractors must not access production')).toBe('policy');
  });

  it('is applied to writes: flagged, typed, weighted; plain facts are not constraints; stated values win', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const constraint = (id: string): [boolean | undefined, string | null | undefined] => {
      const f = p.getFact(id);
      return [f?.isConstraint, f?.constraintType];
    };
    expect(constraint(p.writeFact({ key: 'spend_cap', value: 'Spend must not exceed $50k per quarter' }).factId)).toEqual([true, 'budget']);
    expect(constraint(p.writeFact({ key: 'report', value: 'The report is due by Friday, no later than 5pm' }).factId)).toEqual([true, 'deadline']);
    expect(constraint(p.writeFact({ key: 'room', value: 'Room 302 holds at most 40 attendees' }).factId)).toEqual([true, 'capacity']);
    expect(constraint(p.writeFact({ key: 'visitors', value: 'Visitors sign in at reception', source: { type: 'policy' } }).factId)).toEqual([true, 'policy']);
    expect(constraint(p.writeFact({ key: 'travel', value: 'Flights over $1,000 need approval', source: { type: 'policy' } }).factId)).toEqual([true, 'budget']);
    const plain = p.writeFact({ key: 'logo', value: 'I like the blue logo' });
    expect(constraint(plain.factId)).toEqual([false, null]);
    expect(p.getFact(plain.factId)?.importance).toBe(1);
    expect(p.getFact(p.writeFact({ key: 'cap2', value: 'must stay under 5 seats' }).factId)?.importance).toBe(1.6);
    expect(constraint(p.writeFact({ key: 'c3', value: 'must ship', constraintType: 'deadline' }).factId)).toEqual([true, 'deadline']);
    expect(constraint(p.writeFact({ key: 'c4', value: 'must ship', isConstraint: false }).factId)).toEqual([false, null]);
    store.close();
  });
});

describeStores('words, not substrings', (openStore) => {
  it('time-sensitive keys are recognised by their words', () => {
    for (const key of ['stock_price', 'exchangeRate', 'order-status', 'inventory', 'queue_eta']) expect(inferTimeSensitive(key), key).toBe(true);
    for (const key of ['corporate_card_limit', 'generate_report', 'operator', 'statusline_font']) {
      expect(inferTimeSensitive(key), key).toBe(false);
    }
  });

  it('a percentage cap is a policy constraint, not capacity; a count of people is capacity', () => {
    expect(inferConstraintType('policy max 15%')).toBe('policy');
    expect(inferConstraintType('discount max 15%')).toBe('policy');
    expect(inferConstraintType('max 12 attendees')).toBe('capacity');
    expect(inferConstraintType('Users must not share passwords')).toBe('policy');
  });

  it('only unambiguous cues set draft or hypothetical: a reported outcome is global', () => {
    expect(inferScope('The proposal to switch to Globex was accepted')).toBe('global');
    expect(inferScope('The draft contract was signed yesterday')).toBe('global');
    expect(inferScope('I suppose we are done')).toBe('global');
    expect(inferScope("Let's suppose the budget doubles")).toBe('hypothetical');
    expect(inferScope('Proposal: switch to Globex')).toBe('draft');
  });

  it('the accepted proposal supersedes the old vendor', () => {
    const store = openStore();
    const p = store.scope(user, { create: true });
    const old = p.writeFact({ key: 'vendor', value: 'Initech is our vendor' });
    const r = p.writeFact({ key: 'vendor', value: 'The proposal to switch to Globex was accepted' });
    expect(r).toMatchObject({ outcome: 'superseded', supersededId: old.factId });
    expect(p.getFact(r.factId)?.scope).toBe('global');
    expect(p.currentValue('vendor')).toBe('The proposal to switch to Globex was accepted');
    store.close();
  });
});
