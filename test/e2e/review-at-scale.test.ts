// End to end in Chromium against `statelens serve`: review at scale and explanations a reviewer
// can read. One delete flags 72 facts: the queue shows them as one cause group, cleared in one
// action (undoable) or triaged by keyboard alone; a broad delete asks for its count typed; the
// audit log reads as a history; the context preview explains its scores and budget; the
// Sessions view lists working items. Screenshots at 1280×720 and 1920×1080, light and dark.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../electron/engine/store';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { onFailure, openInspector, type Inspector } from './helpers/inspector';
import { forgetPointerEvents, pointerEvents, recordPointerEvents } from './helpers/pointer';

const missing = chromiumMissing();
if (missing) console.log(`e2e review at scale skipped: ${missing}`);

const CAUSE_KEY = 'quote.kuehne_nagel.pallet_cost';
const GROUP = 72;
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1920, height: 1080 },
] as const;

/** The 72-fact group: a quote 72 facts rest on, deleted by root. */
function deleteAQuoteManyFactsRestOn(file: string, partitionId: number): void {
  const store = Store.open(file);
  try {
    const p = store.scopeById(partitionId);
    const quote = p.writeFact({ key: CAUSE_KEY, value: 'Kühne+Nagel quoted €41 per pallet, Hamburg to Lyon' }).factId;
    p.writeFacts(
      Array.from({ length: GROUP }, (_, i) => ({
        key: `shipment.lane_${String(i + 1).padStart(2, '0')}.cost`,
        value: `Lane ${i + 1} costs ${(i + 3) * 41} € at the quoted pallet rate`,
        dependsOn: [quote],
      })),
    );
    p.deleteFacts({ ids: [quote] }, { actor: 'root', reason: 'the quote was withdrawn' });
  } finally {
    store.close();
  }
}

describe.skipIf(missing !== undefined)('review at scale and readable explanations in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let p: number;

  const go = async (hash: string, ready: string) => {
    await page.goto(`${ui?.base ?? ''}${hash}`);
    await page.reload();
    await page.waitForSelector(ready);
  };
  const total = async () => Number(/^([\d,]+) facts?/.exec((await page.textContent('[data-testid="review-total"]')) ?? '')?.[1]?.replace(/,/g, ''));
  const waitTotal = (n: number) =>
    page.waitForFunction((want) => document.querySelector('[data-testid="review-total"]')?.textContent?.startsWith(`${want} fact`), n.toLocaleString('en-US'));
  const bigGroup = () => page.locator('.review-group').filter({ hasText: `${GROUP} facts rest on` });
  /** Screenshots in both sizes and both schemes. */
  const shoot = async (name: string, ready?: () => Promise<void>) => {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await screenshotBothSchemes(page, `${name}-${size.width}`, ready);
    }
    await page.setViewportSize(SIZES[0]);
  };

  beforeAll(async () => {
    db = seededDatabase({ bulk: 400, graph: 10 });
    p = db.info.mainPartition;
    deleteAQuoteManyFactsRestOn(db.file, p);
    ui = await openInspector(db.file, { visit: false });
    page = ui.page;
    await recordPointerEvents(page);
    await page.setViewportSize(SIZES[0]);
    // The printed URL carries the session token; later visits reuse the session it starts.
    await page.goto(`${ui.served.url}#/review/${p}`);
    await page.waitForSelector('.review-group');
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('the queue arrangement buttons stand apart (a clear gap, light and dark, both sizes)', async () => {
    await go(`#/review/${p}`, '.review-group');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      const [a, b] = await page.$$eval('[role="group"][aria-label="Arrange the queue"] button', (bs) =>
        bs.map((x) => x.getBoundingClientRect().toJSON() as DOMRect),
      );
      if (!a || !b) throw new Error('no arrangement buttons');
      expect(b.left - a.right).toBeGreaterThanOrEqual(4);
      expect(Math.abs(a.top - b.top)).toBeLessThan(1);
    }
    await shoot('review-arrangement-buttons');
  });

  it("groups a delete's 72 flags under their cause and clears them in one action, undoable", async () => {
    await go(`#/review/${p}`, '.review-group');
    const before = await total();
    expect(before).toBe(GROUP + 3);
    const group = bigGroup();
    // Largest first, named by what happened: the audit keeps no key or text of a deleted fact.
    expect(await page.locator('.review-group').first().textContent()).toContain(`${GROUP} facts rest on`);
    const title = (await group.locator('.review-group-title').textContent()) ?? '';
    expect(title).toMatch(
      /^72 facts rest on a deleted fact \(key and text erased\), deleted by root (just now|\d+ (min|h) ago) \(“the quote was withdrawn”\)$/,
    );
    // Folded (too many to show at once), with the other, smaller groups open.
    expect(await group.locator('.review-card').count()).toBe(0);
    expect(await page.locator('.review-card').count()).toBe(3);
    await shoot('review-groups');

    // Action 1 of at most 3: dismiss the group.
    await group.locator('[data-testid="dismiss-group"]').click();
    await waitTotal(3);
    const toast = page.locator('.toast').filter({ hasText: `Dismissed ${GROUP} flags resting on a deleted fact` });
    await toast.waitFor();
    await screenshot(page, 'review-group-dismissed');
    await toast.locator('button:has-text("Undo")').click();
    await waitTotal(GROUP + 3);
    await page.locator('.toast:has-text("Restored 72 review flags")').waitFor();

    // The group's facts one click away; Shift-click takes a range of them.
    await bigGroup().locator('button:has-text("Show 72 facts")').click();
    await bigGroup().locator('.review-card').nth(71).waitFor();
    await bigGroup().locator('.review-card input[type="checkbox"]').nth(2).click();
    await bigGroup()
      .locator('.review-card input[type="checkbox"]')
      .nth(9)
      .click({ modifiers: ['Shift'] });
    expect(await page.textContent('[data-testid="review-selected"]')).toBe('8 facts selected');
    await shoot('review-group-open');
    await page.locator('button:has-text("Clear selection")').click();
    expect(pageErrors(page)).toEqual([]);
  });

  it('triages the 72-fact group by keyboard alone, with the keys listed under ?', async () => {
    await go(`#/review/${p}`, '.review-group');
    await forgetPointerEvents(page);
    const before = await total();
    // j: the first row is the largest group's header; x selects every fact of it.
    await page.keyboard.press('j');
    await page.waitForFunction(() => document.activeElement?.closest('.review-group')?.textContent?.includes('72 facts rest on') ?? false);
    await page.keyboard.press('x');
    await page.waitForFunction(() => document.querySelector('[data-testid="review-selected"]')?.textContent === '72 facts selected');
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="review-selected"]', { state: 'detached' });
    // →: the group's facts; j/k move through them, x picks two, d dismisses the pick.
    await page.keyboard.press('ArrowRight');
    await bigGroup().locator('.review-card').nth(71).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await page.keyboard.press('x');
    await page.waitForFunction(() => document.querySelector('[data-testid="review-selected"]')?.textContent === '2 facts selected');
    await screenshot(page, 'review-keyboard-selection');
    await page.keyboard.press('d');
    await waitTotal(before - 2);
    // Enter on a fact opens it; Back returns to the queue.
    await page.keyboard.press('j');
    const opened = await page.evaluate(() => document.activeElement?.getAttribute('data-fact-id'));
    expect(opened).toBeTruthy();
    // k back to the header; d dismisses the rest of the group at once.
    for (let i = 0; i < 5; i++) await page.keyboard.press('k');
    await page.waitForFunction(() => document.activeElement?.classList.contains('review-group-head') ?? false);
    await page.keyboard.press('d');
    await waitTotal(3);
    expect(await bigGroup().count()).toBe(0);
    // ? lists the queue's keys.
    await page.keyboard.press('?');
    const help = page.locator('role=dialog[name="Keyboard shortcuts"]');
    await help.waitFor();
    const queueKeys = (await help.locator('section[aria-label="Review queue"]').textContent()) ?? '';
    expect(queueKeys).toContain('Dismiss the flag');
    expect(queueKeys).toContain('Open the fact');
    expect((await help.locator('section[aria-label="Memories table and review queue"]').textContent()) ?? '').toContain('Select or unselect');
    await screenshot(page, 'review-shortcuts');
    await page.keyboard.press('Escape');
    expect(await pointerEvents(page)).toEqual([]);
  });

  it('asks for the count typed before a delete of most of the partition by a broad filter', async () => {
    await go(`#/memories/${p}`, '[role="grid"][aria-label="Memories"] [role="row"][data-fact-id]');
    // Every bulk note of the seed: most of the partition.
    await page.fill('input[type="search"]', 'note');
    await page.waitForFunction(() => /^[\d,]+ facts/.test(document.querySelector('[data-testid="fact-count"]')?.textContent ?? ''));
    await page.click('button:has-text("Delete all matching…")');
    const dialog = page.locator('role=dialog[name="Delete every fact matching the filter"]');
    const broad = dialog.locator('[data-testid="broad-delete"]');
    await broad.waitFor();
    const count = Number(((await dialog.locator('[data-testid="impact-delete-count"]').textContent()) ?? '').replace(/\D/g, ''));
    expect(await broad.textContent()).toMatch(/% of this partition/);
    expect(await dialog.locator('[data-testid="confirm-tick"]').count()).toBe(0);
    const confirm = dialog.locator('[data-testid="confirm-delete"]');
    expect(await confirm.isDisabled()).toBe(true);
    await broad.locator('input').fill(String(count - 1));
    expect(await confirm.isDisabled()).toBe(true);
    await broad.locator('input').fill(count.toLocaleString('en-US'));
    expect(await confirm.isDisabled()).toBe(false);
    await shoot('delete-broad-typed-count', () => broad.scrollIntoViewIfNeeded());
    await dialog.locator('button:has-text("Cancel")').click();
  });

  it('reads the audit log as a history: actions in words, facts by key and value, erased text said so', async () => {
    await go(`#/audit/${p}`, '.audit-table tbody tr');
    const rows = page.locator('.audit-table tbody tr');
    const text = (await rows.allTextContents()).join('\n');
    expect(text).toContain('Deleted 1 fact; 72 dependents flagged for review. Key and text erased with it');
    expect(text).toMatch(/Dismissed the review flags of 2 facts: shipment\.lane_\d\d\.cost/);
    expect(text).toContain('Undid a dismissal');
    expect(text).not.toMatch(/dismiss_review|restore_review|\bf_[0-9a-z]{8,}/);
    await shoot('audit-history');
  });

  it('explains the context preview: score legend, the facts share on the budget bar, why items were left out', async () => {
    await go(`#/context/${p}`, 'role=region[name="Context preview"]');
    await page.fill('textarea', 'Where does Ana live now?');
    await page.click('button[type="submit"]');
    const stateBased = page.locator('role=article[name="Context assembled by state_based"]');
    await stateBased.waitFor();
    const legend = async (strategy: string) =>
      (await page.locator(`role=article[name="Context assembled by ${strategy}"] >> role=region[name="What the score parts mean"]`).textContent()) ?? '';
    expect(await legend('state_based')).toContain('Relevancehow well the fact matches the words of the query');
    expect(await legend('balanced')).toMatch(/Importancehow much the fact matters.*Recencyhow recently the fact was established or last used/);
    expect(await stateBased.locator('[data-testid="fact-share"]').textContent()).toMatch(/Facts may use 70% of what identity and environment leave/);
    await stateBased.locator('.excluded details').first().locator('summary').click();
    expect(await stateBased.locator('.excluded-why').first().textContent()).toMatch(/^Left out [^.]+\.$/);
    await shoot('context-explained', () => stateBased.locator('.budget-bar').scrollIntoViewIfNeeded());
  });

  it("lists a session's working items", async () => {
    await go(`#/sessions/${p}`, 'role=tab[name="Working items"]');
    await page.click('role=tab[name="Working items"]');
    const table = page.locator('role=table[name="Working items of sess-1"]');
    expect(await table.textContent()).toContain('User: can you book my train to Munich?');
    await shoot('session-working-items');
  });
});
