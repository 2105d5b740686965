import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mountInspector } from '../test-utils/harness';

/** The open fact's article in the detail panel (named after its key). */
async function openArticle(key: string): Promise<HTMLElement> {
  const panel = await screen.findByRole('complementary', { name: 'Fact detail' });
  return within(panel).findByRole('article', { name: `Fact ${key}` });
}

/** The value shown under a label of the fields list. */
function field(article: HTMLElement, label: string): string {
  const dt = within(within(article).getByRole('region', { name: 'Fields' })).getByText(label, { selector: 'dt' });
  return dt.nextElementSibling?.textContent ?? '';
}

describe('fact detail panel on a real database', () => {
  it('shows every field of a flagged fact, why it needs review, its dependencies both ways and its audit', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.flaggedId }) });
    const article = await openArticle('commute_plan');
    expect(within(article).getByRole('region', { name: 'Value' }).textContent).toBe('Takes the TER train from Lyon Part-Dieu every Monday');
    expect(field(article, 'Label')).toBe('F-2');
    expect(field(article, 'Source')).toBe('user (ana)');
    expect(field(article, 'Authority')).toBe('employee');
    expect(field(article, 'Turn / event')).toBe('2 / —');
    expect(field(article, 'Scope')).toBe('global');
    expect(field(article, 'Constraint')).toBe('no');
    expect(field(article, 'Time')).toBe('2025-01-06 09:00:00 UTC');
    expect(field(article, 'Valid until')).toBe('still valid');
    expect(field(article, 'Supersedes')).toBe('—');
    expect(field(article, 'Chain')).toBe('1 version');

    // Flagged because the city it rests on was replaced: the upstream change and what replaced it.
    const cause = within(article).getByRole('region', { name: 'Why this fact needs review' });
    expect(cause.textContent).toContain('Upstream change: home_city');
    expect(cause.textContent).toContain('Ana lives in Lyon');
    // References read as key, value snippet and status, and open the fact.
    expect(cause.textContent).toMatch(/Replaced by home_city\S.*(valid|superseded)$/);
    expect(within(cause).getAllByRole('link', { name: /^Open home_city: / }).length).toBe(2);

    const dependsOn = within(article).getByRole('region', { name: 'Depends on' });
    expect(within(dependsOn).getByRole('heading').textContent).toBe('Depends on (1)');
    expect(within(dependsOn).getByRole('button', { name: 'Open home_city' })).toBeTruthy();
    expect(dependsOn.textContent).toContain('Ana lives in Lyon');
    expect(dependsOn.querySelector('.badge-superseded')?.textContent).toBe('superseded');
    const derived = within(article).getByRole('region', { name: 'Derived facts' });
    expect(within(derived).getByRole('heading').textContent).toBe('Derived facts that rest on it (1)');
    expect(derived.textContent).toContain('Plans weekend hikes reachable by the Monday train');
    // Flagging is not an audited action; nothing was done to this fact by hand yet.
    expect(within(article).getByRole('region', { name: 'Audit entries' }).textContent).toBe('AuditNo audit entries for this fact.');

    // A dependency link opens that fact in the panel.
    fireEvent.click(within(derived).getByRole('button', { name: 'Open weekend_trips' }));
    const next = await openArticle('weekend_trips');
    expect(within(next).getByRole('region', { name: 'Value' }).textContent).toBe('Plans weekend hikes reachable by the Monday train');
    expect(field(next, 'Label')).toBe('F-3');
  });

  it('shows a superseded version with its successor and rule, and no review section', async () => {
    await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.homeCityFirst }) });
    const article = await openArticle('home_city');
    expect(within(article).getByRole('region', { name: 'Value' }).textContent).toBe('Ana lives in Lyon');
    expect(article.querySelector('.badge-superseded')?.textContent).toBe('superseded');
    expect(field(article, 'Superseded by')).toBe('home_cityAna lives in Paris nowsuperseded');
    expect(field(article, 'Valid until')).toMatch(/^\d{4}-\d\d-\d\d /);
    expect(field(article, 'Rule')).toMatch(/^explicit /);
    expect(field(article, 'Chain')).toBe('4 versions, 1 proposal');
    expect(within(article).getByRole('region', { name: 'Audit entries' }).textContent).toMatch(/supersede by ana — explicit/);
    expect(within(article).queryByRole('region', { name: 'Why this fact needs review' })).toBeNull();
    expect(within(article).queryByRole('button', { name: 'Dismiss review flag' })).toBeNull();
    // Its successor opens from the link.
    fireEvent.click(
      within(within(article).getByRole('region', { name: 'Fields' })).getByRole('link', { name: /^Open home_city: Ana lives in Paris now \(superseded\)$/ }),
    );
    await waitFor(() =>
      expect(within(screen.getByRole('complementary', { name: 'Fact detail' })).getByRole('region', { name: 'Value' }).textContent).toBe(
        'Ana lives in Paris now',
      ),
    );
  });

  it('dismisses the review flag from the panel, recorded in the audit log', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.flaggedId }) });
    const article = await openArticle('commute_plan');
    fireEvent.click(within(article).getByRole('button', { name: 'Dismiss review flag' }));
    expect(await screen.findByText('Review flag dismissed (recorded in the audit log)')).toBeTruthy();
    await waitFor(() => expect(within(article).queryByRole('region', { name: 'Why this fact needs review' })).toBeNull());
    await waitFor(() =>
      expect(within(article).getByRole('region', { name: 'Audit entries' }).textContent).toMatch(/dismiss_review by \S+ — dismissed in the inspector/),
    );
    const fact = await m.transport.call('facts.get', { partitionId: m.backend.seeded.mainPartition, factId: m.backend.seeded.flaggedId });
    expect(fact.fact.needsReview).toBe(false);
  });

  it('shows a deleted upstream fact as the audit log knows it: who deleted it, when, the entry and its reason', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.flaggedId }) });
    await openArticle('commute_plan');
    await m.transport.call('deletion.apply', {
      partitionId: m.backend.seeded.mainPartition,
      selection: { ids: [m.backend.seeded.homeCityFirst, m.backend.seeded.homeCityHead] },
      reason: 'moved away, erase the city',
    });
    const article = await openArticle('commute_plan');
    await waitFor(() => expect(within(article).getByRole('region', { name: 'Why this fact needs review' }).textContent).toMatch(/was deleted by/));
    const cause = within(article).getByRole('region', { name: 'Why this fact needs review' });
    expect(cause.textContent).toMatch(
      /Upstream fact f_[\w-]+ was deleted by \S+ at .+ \(audit entry #\d+: moved away, erase the city\)\. Its key and text were erased with it/,
    );
  });

  it('shows hostile text as text, says the fact is gone when it is deleted while open, and closes', async () => {
    const m = await mountInspector({ initial: (s) => ({ partitionId: s.mainPartition, factId: s.hostileId }) });
    const article = await openArticle('note_markup');
    // Memory text is text: the hostile value is shown, never parsed.
    expect(within(article).getByRole('region', { name: 'Value' }).textContent).toContain('<script>window.__pwned=2</script>');
    expect(article.querySelector('script, img, b')).toBeNull();
    await m.transport.call('deletion.apply', {
      partitionId: m.backend.seeded.mainPartition,
      selection: { ids: [m.backend.seeded.hostileId] },
      reason: 'panel test',
    });
    const panel = screen.getByRole('complementary', { name: 'Fact detail' });
    expect(await within(panel).findByText('This fact is gone')).toBeTruthy();
    // Closing it leaves the table alone on screen.
    fireEvent.click(within(panel).getByRole('button', { name: 'Close the fact panel' }));
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Fact detail' })).toBeNull());
    expect(screen.getByRole('grid', { name: 'Memories' })).toBeTruthy();
  });
});
