// The inspector in Chromium for one describe block: the renderer built, `statelens serve` on a
// prepared database (the file, or its copy on a server: ./store), Chromium opened at the URL serve prints (it carries the session token; the
// tab keeps the session, so later visits need only the origin), and what a failed test leaves.
import type { Page } from 'playwright-core';
import type { TestContext } from 'vitest';
import { launchChromium, screenshot, type Browser } from './browser';
import { buildRenderer, startServe, type Served } from './serve';
import type { ServedStore } from './store';

export interface Inspector {
  readonly served: Served;
  /** The store serve has open; tests that change the data by other means go through it. */
  readonly store: ServedStore;
  readonly browser: Browser;
  readonly page: Page;
  /** The served origin with its slash: `${base}#/memories/3` reuses the session. */
  readonly base: string;
  /** Closes Chromium, then stops serve (dropping a server copy of the database). */
  close(): Promise<void>;
}

export interface InspectorOptions {
  /** Where the first visit lands, e.g. `#/memories/3` (default: the printed URL as it is). */
  readonly hash?: string;
  /** A selector the first visit waits for. */
  readonly waitFor?: string;
  /** false: open no page yet (the test makes the first visit itself). */
  readonly visit?: boolean;
  /** Further `statelens serve` arguments, and variables added to its environment. */
  readonly serveArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export async function openInspector(db: string, options: InspectorOptions = {}): Promise<Inspector> {
  await buildRenderer();
  const served = await startServe(db, options.serveArgs ?? [], options.env ?? {});
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const page = await browser.newPage();
    if (options.visit !== false) {
      await page.goto(`${served.url}${options.hash ?? ''}`);
      if (options.waitFor) await page.waitForSelector(options.waitFor);
    }
    const opened = browser;
    return {
      served,
      store: served.store,
      browser: opened,
      page,
      base: `${served.origin}/`,
      async close() {
        await opened.close();
        await served.stop();
      },
    };
  } catch (e) {
    await browser?.close();
    await served.stop();
    throw e;
  }
}

/** An afterEach hook: after a failed test, a screenshot named after it, the start of the page's
 * text on the log, and Escape pressed so no dialog stays open for the next test. */
export function onFailure(page: () => Page | undefined, prefix = ''): (ctx: TestContext) => Promise<void> {
  return async (ctx) => {
    const p = page();
    if (ctx.task.result?.state !== 'fail' || !p || p.isClosed()) return;
    await screenshot(p, `FAILED-${prefix}${ctx.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`);
    console.log(`e2e failure page text: ${((await p.textContent('body').catch(() => '')) ?? '').slice(0, 1500)}`);
    await p.keyboard.press('Escape').catch(() => undefined);
  };
}
