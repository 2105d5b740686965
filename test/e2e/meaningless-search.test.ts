// End to end, in Debian Chromium against `statelens serve`: a search that means nothing (only
// punctuation) or too much (too many words, too many characters) shows its error where the rows
// were, and nothing is offered for deletion; a search that means something offers its delete,
// whose dialog echoes the filter the engine will apply.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, pageErrors, screenshot } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e meaningless search skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;
const DELETE_ALL = 'button:has-text("Delete all matching…")';

describe.skipIf(missing !== undefined)('searches that mean nothing, in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let factsBefore: number;

  const factCount = (): number => {
    if (!ui) throw new Error('the inspector is not open');
    const store = ui.store.open({ readonly: true });
    try {
      return store.db.prepare('SELECT count(*) FROM facts').pluck().get() as number;
    } finally {
      store.close();
    }
  };

  /** Types a search and waits for the view to settle on the refusal. */
  async function searchRefused(text: string, message: RegExp): Promise<string> {
    await page.fill('input[type="search"]', text);
    const alert = page.locator('.table-area [role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    const said = (await alert.textContent()) ?? '';
    expect(said).toMatch(message);
    expect(await page.locator(ROW).count()).toBe(0);
    expect(await page.locator(DELETE_ALL).count()).toBe(0);
    expect(await page.textContent('[data-testid="fact-count"]')).toBe('No result');
    return said;
  }

  /** Types a search that means something and waits for its rows and its delete offer. */
  async function searchZebra(): Promise<void> {
    await page.fill('input[type="search"]', 'zebra');
    await page.waitForFunction((n) => document.querySelector('[data-testid="fact-count"]')?.textContent?.startsWith(`${n} facts`), String(db.info.zebraCount));
    await page.locator(DELETE_ALL).waitFor();
  }

  beforeAll(async () => {
    db = seededDatabase({ bulk: 1_200, graph: 50 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    factsBefore = factCount();
    page = ui.page;
  });

  afterEach(onFailure(() => page));

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('shows the error in place of the rows for punctuation-only searches, with no delete offered', async () => {
    // From a result that offers a delete: the garbage search must not leave it on screen.
    await searchZebra();
    const said = await searchRefused('"((', /Filter not applied.*The search ""\(\(" has no word to look for/s);
    expect(said).not.toMatch(/Try again/);
    await screenshot(page, 'search-refused-punctuation');
    for (const garbage of ['*', '^', '()']) {
      await searchZebra();
      await searchRefused(garbage, /has no word to look for/);
    }
  });

  it('shows the error for a 40-word and a 200 KB search instead of the unfiltered list', async () => {
    await searchZebra();
    await searchRefused(Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '), /40 words; at most 32 are allowed/);
    await searchZebra();
    await searchRefused('budget '.repeat(29_000), /at most 500 characters/);
    await screenshot(page, 'search-refused-oversized');
  });

  it('a search that means something offers its delete, and the dialog echoes the filter', async () => {
    await searchZebra();
    await page.click(DELETE_ALL);
    const dialog = page.locator('role=dialog[name="Delete every fact matching the filter"]');
    await dialog.locator('[data-testid="impact-delete-count"]').waitFor();
    expect(await dialog.locator('[data-testid="impact-delete-count"]').textContent()).toBe(`${db.info.zebraCount} facts`);
    const conditions = await dialog.locator('[aria-label="Filter conditions"] li').allTextContents();
    expect(conditions).toEqual(['search: every word of "zebra" ("zebra" also as the start of a word)']);
    await screenshot(page, 'delete-dialog-echoes-filter');
    await dialog.locator('button:has-text("Cancel")').click();
    await dialog.waitFor({ state: 'detached' });
    expect(factCount()).toBe(factsBefore);
    expect(pageErrors(page).filter((e) => !/status of 400/.test(e))).toEqual([]);
  });
});
