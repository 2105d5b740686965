// The theme's colour tokens in real Chromium: each token holds its light and dark value once,
// and the scheme in force picks — the system's by default, data-theme when the user fixed one —
// and cssVar hands the canvas a concrete colour in either scheme.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cssVar } from '../../renderer/theme/css-var';
import { chromiumMissing, launchChromium, type Browser } from './helpers/browser';
import { repoRoot } from '../helpers/paths';

const missing = chromiumMissing();
if (missing) console.log(`e2e theme skipped: ${missing}`);
const css = fs.readFileSync(path.join(repoRoot, 'renderer', 'theme', 'theme.css'), 'utf8');

const LIGHT = { bg: 'rgb(244, 245, 247)', accent: 'rgb(42, 98, 212)', review: 'rgb(217, 52, 43)' };
const DARK = { bg: 'rgb(21, 23, 28)', accent: 'rgb(109, 157, 255)', review: 'rgb(255, 107, 107)' };

describe.skipIf(missing)('theme tokens (Chromium)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setContent(`<!doctype html><html><head><style>${css}</style></head><body></body></html>`);
  });
  afterAll(async () => browser?.close());

  async function seen(system: 'light' | 'dark', theme: 'light' | 'dark' | null): Promise<{ bg: string; accent: string; review: string }> {
    await page.emulateMedia({ colorScheme: system });
    return page.evaluate(
      ([src, choice]) => {
        const root = document.documentElement;
        if (choice === null) delete root.dataset.theme;
        else root.dataset.theme = choice;
        const read = (0, eval)(`(${src})`) as (name: string) => string;
        return { bg: getComputedStyle(document.body).backgroundColor, accent: read('--accent'), review: read('--st-review') };
      },
      [cssVar.toString(), theme] as const,
    );
  }

  it('follows the system scheme when the user chose none', async () => {
    expect(await seen('light', null)).toEqual(LIGHT);
    expect(await seen('dark', null)).toEqual(DARK);
  });

  it("the user's choice wins over the system's either way", async () => {
    expect(await seen('dark', 'light')).toEqual(LIGHT);
    expect(await seen('light', 'dark')).toEqual(DARK);
    expect(await seen('dark', 'dark')).toEqual(DARK);
  });

  it('every colour token resolves to a concrete colour in both schemes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await seen('light', theme);
      const values = await page.evaluate((src) => {
        const read = (0, eval)(`(${src})`) as (name: string) => string;
        const names = [...document.styleSheets]
          .flatMap((s) => [...s.cssRules])
          .flatMap((r) => (r instanceof CSSStyleRule ? [...r.style] : []))
          .filter((n) => n.startsWith('--') && !['--font', '--mono', '--radius', '--row-h', '--gap', '--shadow'].includes(n));
        return names.map((n) => [n, read(n)]);
      }, cssVar.toString());
      expect(values.length).toBeGreaterThan(20);
      for (const [name, value] of values) expect(value, `${name} (${theme})`).toMatch(/^rgba?\(\d+, \d+, \d+(, [\d.]+)?\)$/);
    }
  });
});
