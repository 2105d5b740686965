// A small StateBench timeline for the CLI tests: a budget superseded by a correction (named by
// key, as most StateBench supersessions are), then a query about it.
export function timeline(id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id,
    actors: { user: { id: 'u1', role: 'Manager', org: 'acme' } },
    initial_state: {
      identity_role: { user_name: 'Ann', authority: 'Manager', department: 'Sales', organization: 'Acme', communication_style: null },
      persistent_facts: [
        {
          id: 'F-1',
          key: 'budget',
          value: '$200,000 budget',
          source: { type: 'system', identity: null, authority: 'peer' },
          ts: '2025-01-01T10:00:00',
          is_valid: true,
        },
      ],
      working_set: [],
      environment: { now: '2025-01-01T10:05:00' },
    },
    events: [
      { ts: '2025-01-01T10:06:00', type: 'conversation_turn', speaker: 'user', text: 'The budget changed' },
      {
        ts: '2025-01-01T10:07:00',
        type: 'supersession',
        writes: [
          {
            id: 'W-AUTO',
            layer: 'persistent_facts',
            key: 'budget_corrected',
            value: '$120,000 budget',
            source: { type: 'user', authority: 'peer' },
            supersedes: 'budget',
          },
        ],
      },
      { ts: '2025-01-01T10:09:00', type: 'query', prompt: 'What is the budget?', ground_truth: { must_mention: ['$120,000'] } },
    ],
    ...extra,
  });
}
