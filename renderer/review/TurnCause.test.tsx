import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { externalTurns } from '../../test/e2e/helpers/backend';
import { openStoreAt } from '../../test/e2e/helpers/store';
import { mountInspector } from '../test-utils/harness';

describe('a review flag raised by a conversation turn', () => {
  it('shows the turn, its speaker, the change cue and the entity on the review card', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, view: 'review' }) });
    const view = await screen.findByRole('region', { name: 'Review queue' });
    fireEvent.click(within(view).getByRole('button', { name: 'Flat list' }));
    await waitFor(() => expect(within(view).getByTestId('review-total').textContent).toBe('3 facts need review'));
    // The user's agent process starts session "ui" as the partition's user (identity belongs to its
    // session, so an unidentified speaker could not change the manager's words), records the fact,
    // then the user's hedged turn.
    const agent = openStoreAt(m.backend.dbPath);
    try {
      const ana = agent.scope({ kind: 'user', org: 'acme', user: 'ana' });
      const identity = ana.identity();
      if (!identity) throw new Error('the seeded partition has an identity');
      ana.setIdentity(identity, { sessionId: 'ui' });
    } finally {
      agent.close();
    }
    externalTurns(m.backend.dbPath, [{ key: 'meeting', value: 'Meeting is Tuesday at 2pm' }], 'ui', [
      { speaker: 'user', text: 'Could we move the meeting to Thursday <b>instead</b>?' },
    ]);
    // The change arrives through the engine's poll for other processes' commits: allow it time.
    const card = await within(view).findByRole('listitem', { name: 'Review meeting' }, { timeout: 15_000 });
    expect(card.textContent).toContain('Why: contradicted by turn 0 of session "ui" (user) names "meeting" with the change cue "instead"');
    expect(card.textContent).toContain(
      'Upstream change: conversation turn 0 of session ui (user): “Could we move the meeting to Thursday <b>instead</b>?” — change cue “instead”',
    );
    // Memory text stays text: the markup in the turn is not rendered.
    expect(card.querySelector('b')).toBeNull();
  });
});
