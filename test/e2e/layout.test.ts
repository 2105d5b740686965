// End to end, the inspector's layout in Debian Chromium: splitters between the panes and the
// table's column borders resize by pointer and keyboard and keep their sizes across a reload; a
// 1280×720 window keeps the key and value readable; whatever is cut off ends in an ellipsis, and
// search highlights in a cut-off cell show whole or not at all; toasts stay clear of the status
// bar; the export's download link looks like a link. Screenshots in both themes at two sizes.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unnamedControls } from './helpers/accessibility';
import { chromiumMissing, pageErrors, screenshot, screenshotBothSchemes, useColorScheme } from './helpers/browser';
import { seededDatabase } from './helpers/database';
import { openInspector, onFailure, type Inspector } from './helpers/inspector';

const missing = chromiumMissing();
if (missing) console.log(`e2e layout skipped: ${missing}`);

const GRID = '[role="grid"][aria-label="Memories"]';
const ROW = `${GRID} [role="row"][data-fact-id]`;
const SIDEBAR = 'Sidebar width';
const PANEL = 'Fact panel width';
const KEY_COLUMN = 'Key column width';
const VALUE_COLUMN = 'Value column width';

/** The window sizes every look is checked at. */
const WINDOWS = [
  [1440, 900],
  [1280, 720],
] as const;

const separator = (name: string) => `[role="separator"][aria-label="${name}"]`;

/** Width of the first element matching `selector`. */
async function widthOf(page: Page, selector: string): Promise<number> {
  return page.$eval(selector, (el) => el.getBoundingClientRect().width);
}

async function valueNow(page: Page, name: string): Promise<number> {
  return Number(await page.getAttribute(separator(name), 'aria-valuenow'));
}

/** Drags the named splitter sideways by `dx` px with the mouse. */
async function drag(page: Page, name: string, dx: number): Promise<void> {
  const box = await page.locator(separator(name)).boundingBox();
  if (!box) throw new Error(`no splitter "${name}" on screen`);
  const x = box.x + box.width / 2;
  const y = box.y + Math.min(box.height / 2, 12);
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(x + (dx * i) / 5, y);
  await page.mouse.up();
}

/** Elements that cut their text off without an ellipsis: every element whose content is wider
 * than its box and that clips it (a scroll container scrolls instead) must end the line in an
 * ellipsis, which only a block (not a flex or grid box) draws. */
async function cutWithoutEllipsis(page: Page): Promise<string[]> {
  return page.$$eval('.app *', (els) =>
    els.flatMap((el) => {
      // Visually hidden text (a 1 px box for screen readers) is not cut off for anyone.
      if (!(el instanceof HTMLElement) || el.scrollWidth <= el.clientWidth + 1 || el.clientWidth <= 1) return [];
      const s = getComputedStyle(el);
      if (s.overflowX === 'auto' || s.overflowX === 'scroll' || s.display === 'none') return [];
      const ok = s.textOverflow === 'ellipsis' && (s.overflowX === 'hidden' || s.overflowX === 'clip') && !/flex|grid/.test(s.display);
      if (ok) return [];
      // A middle ellipsis: a key's tail cut at its start, right after its beginning's ellipsis,
      // with the whole key in the title.
      const head = el.previousElementSibling;
      const middle =
        el.classList.contains('key-text-tail') &&
        head?.classList.contains('key-text-head') &&
        getComputedStyle(head).textOverflow === 'ellipsis' &&
        el.parentElement?.getAttribute('title') === el.parentElement?.getAttribute('data-key-text');
      if (middle) return [];
      const what = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`;
      return [`${what} (${s.display}, overflow ${s.overflowX}, text-overflow ${s.textOverflow}): "${(el.textContent ?? '').slice(0, 40)}"`];
    }),
  );
}

/** Keys cut in the middle: the beginning ends in an ellipsis, the distinguishing tail stays in
 * view whole (while it fits), and the full key is in the title for hover. */
async function middleEllipsisProblems(page: Page): Promise<string[]> {
  return page.$$eval('.app .key-text', (els) =>
    els.flatMap((el) => {
      const head = el.querySelector('.key-text-head') as HTMLElement | null;
      const tail = el.querySelector('.key-text-tail') as HTMLElement | null;
      const key = el.getAttribute('data-key-text') ?? '';
      if (!head || !tail || head.scrollWidth <= head.clientWidth + 1) return [];
      const out: string[] = [];
      if (el.getAttribute('title') !== key) out.push(`key "${key}" is cut but its title is "${el.getAttribute('title')}"`);
      if (getComputedStyle(head).textOverflow !== 'ellipsis') out.push(`key "${key}" is cut in the middle without an ellipsis`);
      // A tail cut as well keeps its end (cut at its start, after the beginning's ellipsis).
      if (tail.scrollWidth > tail.clientWidth + 1 && getComputedStyle(tail).direction !== 'rtl') out.push(`key "${key}" lost the end of its tail`);
      return out;
    }),
  );
}

interface Run {
  readonly row: string;
  readonly from: number;
  readonly to: number;
}

/** Runs of highlight colour along each value cell (from a screenshot, read back in the page),
 * and the boxes of the cell's <mark>s: a run that is not a whole mark is a sliver. */
async function highlightRuns(page: Page): Promise<{ runs: Run[]; marks: Run[]; colour: string }> {
  const grid = await page.locator(GRID).boundingBox();
  if (!grid) throw new Error('no grid');
  const png = (await page.screenshot({ clip: grid })).toString('base64');
  return page.evaluate(
    async ([data, sel, origin]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d', { willReadFrequently: true });
      if (!ctx) throw new Error('no 2d context');
      ctx.drawImage(img, 0, 0);
      const probe = document.querySelector(`${sel} mark`);
      const colour = probe ? getComputedStyle(probe).backgroundColor : '';
      const want = colour.match(/\d+/g)?.map(Number) ?? [];
      const runs: Array<{ row: string; from: number; to: number }> = [];
      const marks: Array<{ row: string; from: number; to: number }> = [];
      const gridBox = (document.querySelector(sel) as HTMLElement).getBoundingClientRect();
      for (const row of document.querySelectorAll(`${sel} [role="row"][data-fact-id]`)) {
        const id = row.getAttribute('data-fact-id') ?? '';
        const cell = row.querySelectorAll('[role="gridcell"]')[2] as HTMLElement | undefined;
        if (!cell) continue;
        const box = cell.getBoundingClientRect();
        if (box.bottom > gridBox.bottom || box.top < gridBox.top + 30) continue;
        for (const m of cell.querySelectorAll('mark')) {
          const r = m.getBoundingClientRect();
          marks.push({ row: id, from: Math.round(r.left), to: Math.round(r.right) });
        }
        const y0 = Math.round(box.top - origin[1] + 4);
        const y1 = Math.round(box.bottom - origin[1] - 4);
        let start = -1;
        const right = Math.min(box.right, gridBox.right);
        for (let x = Math.round(box.left); x <= Math.round(right); x++) {
          let hit = false;
          if (x < Math.round(right)) {
            const column = ctx.getImageData(x - origin[0], y0, 1, y1 - y0).data;
            for (let i = 0; i < column.length && !hit; i += 4)
              hit =
                Math.abs((column[i] ?? 0) - (want[0] ?? -99)) <= 6 &&
                Math.abs((column[i + 1] ?? 0) - (want[1] ?? -99)) <= 6 &&
                Math.abs((column[i + 2] ?? 0) - (want[2] ?? -99)) <= 6;
          }
          if (hit && start < 0) start = x;
          if (!hit && start >= 0) {
            runs.push({ row: id, from: start, to: x });
            start = -1;
          }
        }
      }
      return { runs, marks, colour };
    },
    [png, GRID, [grid.x, grid.y]] as const,
  );
}

describe.skipIf(missing !== undefined)('inspector layout in Chromium', () => {
  let db: ReturnType<typeof seededDatabase>;
  let ui: Inspector | undefined;
  let page: Page;
  let base: string;

  /** A fresh load of `hash` at this window size, with the sizes stored so far. */
  const open = async (hash: string, width = 1440, height = 900) => {
    await page.setViewportSize({ width, height });
    await page.goto(`${base}${hash}`);
    await page.reload();
    await page.waitForSelector(ROW);
  };
  const forgetSizes = () => page.evaluate(() => window.localStorage.removeItem('statelens.layout'));
  const factHash = () => `#/memories/${db.info.mainPartition}/${db.info.homeCityHead}`;

  beforeAll(async () => {
    db = seededDatabase({ bulk: 400, graph: 30 });
    ui = await openInspector(db.file, { hash: `#/memories/${db.info.mainPartition}`, waitFor: ROW });
    ({ page, base } = ui);
  });

  afterEach(async (ctx) => {
    await onFailure(() => page, 'layout-')(ctx);
    await page?.emulateMedia({ colorScheme: 'light' });
    await forgetSizes().catch(() => undefined);
  });

  afterAll(async () => {
    await ui?.close();
    db?.remove();
  });

  it('drags the sidebar, fact panel and column splitters; the sizes survive a reload; a double-click resets', async () => {
    // In a wide window the value column takes the room left: its grip reports the width it has.
    await open(`#/memories/${db.info.mainPartition}`, 1920, 1000);
    const valueHeader = await widthOf(page, `${GRID} [role="columnheader"]:has(${separator(VALUE_COLUMN)})`);
    expect(valueHeader).toBeGreaterThan(400);
    expect(await valueNow(page, VALUE_COLUMN)).toBe(Math.round(valueHeader));

    await open(factHash());
    await page.waitForSelector('.fact-panel');
    const before = {
      sidebar: await widthOf(page, 'aside.sidebar'),
      panel: await widthOf(page, '.fact-panel'),
      key: await widthOf(page, `${GRID} [role="columnheader"]:has(${separator(KEY_COLUMN)})`),
    };
    expect(before.sidebar).toBe(260);
    expect(await valueNow(page, SIDEBAR)).toBe(260);
    expect(await valueNow(page, PANEL)).toBe(Math.round(before.panel));
    expect(await valueNow(page, KEY_COLUMN)).toBe(Math.round(before.key));

    await drag(page, SIDEBAR, 80);
    // Until dragged, the panel takes its share of what the sidebar leaves.
    const panelBefore = await widthOf(page, '.fact-panel');
    expect(panelBefore).toBeLessThanOrEqual(before.panel);
    await drag(page, PANEL, -100);
    await drag(page, KEY_COLUMN, 60);
    const after = {
      sidebar: await widthOf(page, 'aside.sidebar'),
      panel: await widthOf(page, '.fact-panel'),
      key: await widthOf(page, `${GRID} [role="columnheader"]:has(${separator(KEY_COLUMN)})`),
      keyCell: await widthOf(page, `${ROW} [role="gridcell"]:nth-child(2)`),
    };
    expect(after.sidebar).toBeCloseTo(before.sidebar + 80, 0);
    expect(after.panel).toBeCloseTo(panelBefore + 100, 0);
    expect(after.key).toBeCloseTo(before.key + 60, 0);
    expect(after.keyCell).toBeCloseTo(after.key, 0);
    expect(await valueNow(page, SIDEBAR)).toBe(Math.round(after.sidebar));
    expect(await valueNow(page, PANEL)).toBe(Math.round(after.panel));
    await screenshot(page, 'layout-resized-light');

    await open(factHash());
    await page.waitForSelector('.fact-panel');
    expect(await widthOf(page, 'aside.sidebar')).toBeCloseTo(after.sidebar, 0);
    expect(await widthOf(page, '.fact-panel')).toBeCloseTo(after.panel, 0);
    expect(await widthOf(page, `${ROW} [role="gridcell"]:nth-child(2)`)).toBeCloseTo(after.key, 0);

    for (const name of [SIDEBAR, PANEL, KEY_COLUMN]) await page.dblclick(separator(name));
    expect(await widthOf(page, 'aside.sidebar')).toBeCloseTo(before.sidebar, 0);
    expect(await widthOf(page, '.fact-panel')).toBeCloseTo(before.panel, 0);
    expect(await widthOf(page, `${ROW} [role="gridcell"]:nth-child(2)`)).toBeCloseTo(before.key, 0);
    await open(factHash());
    expect(await widthOf(page, 'aside.sidebar')).toBeCloseTo(before.sidebar, 0);
    expect(await widthOf(page, `${ROW} [role="gridcell"]:nth-child(2)`)).toBeCloseTo(before.key, 0);
    expect(pageErrors(page)).toEqual([]);
  });

  it('resizes from the keyboard without moving the table selection', async () => {
    await open(factHash());
    await page.waitForSelector('.fact-panel');
    const hash = await page.evaluate(() => window.location.hash);
    for (const name of [SIDEBAR, PANEL, KEY_COLUMN, VALUE_COLUMN]) {
      const attrs = await page.$eval(separator(name), (el) => ({
        orientation: el.getAttribute('aria-orientation'),
        min: Number(el.getAttribute('aria-valuemin')),
        max: Number(el.getAttribute('aria-valuemax')),
        now: Number(el.getAttribute('aria-valuenow')),
        tab: (el as HTMLElement).tabIndex,
      }));
      expect(attrs.orientation, name).toBe('vertical');
      expect(attrs.tab, name).toBe(0);
      expect(attrs.min, name).toBeLessThan(attrs.now);
      expect(attrs.now, name).toBeLessThan(attrs.max);
    }

    const key = await valueNow(page, KEY_COLUMN);
    await page.focus(separator(KEY_COLUMN));
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await valueNow(page, KEY_COLUMN)).toBe(key + 30);
    expect(await widthOf(page, `${ROW} [role="gridcell"]:nth-child(2)`)).toBeCloseTo(key + 30, 0);
    await page.keyboard.press('Shift+ArrowLeft');
    expect(await valueNow(page, KEY_COLUMN)).toBe(key - 20);

    const sidebar = await valueNow(page, SIDEBAR);
    await page.focus(separator(SIDEBAR));
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect(await widthOf(page, 'aside.sidebar')).toBeCloseTo(sidebar - 20, 0);

    // The panel is right of its divider: moving the divider left widens it.
    const panel = await widthOf(page, '.fact-panel');
    await page.focus(separator(PANEL));
    await page.keyboard.press('ArrowLeft');
    expect(await widthOf(page, '.fact-panel')).toBeCloseTo(panel + 10, 0);
    await page.keyboard.press('Enter');
    expect(await widthOf(page, '.fact-panel')).toBeCloseTo(panel, 0);

    // Arrow keys on a splitter are the splitter's: the open fact stayed where it was.
    expect(await page.evaluate(() => window.location.hash)).toBe(hash);
    await open(factHash());
    expect(await valueNow(page, KEY_COLUMN)).toBe(key - 20);
    expect(await widthOf(page, 'aside.sidebar')).toBeCloseTo(sidebar - 20, 0);
  });

  it('keeps the key and value readable at 1280×720 and the table wide enough beside a wide panel', async () => {
    await open(factHash(), 1280, 720);
    await page.waitForSelector('.fact-panel');
    const visible = await page.$eval(ROW, (row) => {
      const grid = row.closest('[role="grid"]')?.getBoundingClientRect();
      const cells = [...row.querySelectorAll('[role="gridcell"]')].map((c) => c.getBoundingClientRect());
      const shown = (r: DOMRect | undefined) => (r && grid ? Math.min(r.right, grid.right) - Math.max(r.left, grid.left) : 0);
      return { key: shown(cells[1]), value: shown(cells[2]) };
    });
    expect(visible.key).toBeGreaterThanOrEqual(160);
    expect(visible.value).toBeGreaterThanOrEqual(260);

    // Scrolled sideways to the last columns, the key stays in view beside the checkbox.
    await page.$eval(GRID, (g) => {
      g.scrollLeft = g.scrollWidth;
    });
    const scrolled = await page.$eval(ROW, (row) => {
      const grid = row.closest('[role="grid"]') as HTMLElement;
      const box = grid.getBoundingClientRect();
      const key = row.querySelector('[data-col="key"]')?.getBoundingClientRect();
      const header = grid.querySelector('[role="columnheader"][data-col="key"]')?.getBoundingClientRect();
      return { scrollLeft: grid.scrollLeft, keyLeft: (key?.left ?? 0) - box.left, keyWidth: key?.width ?? 0, headerLeft: (header?.left ?? 0) - box.left };
    });
    expect(scrolled.scrollLeft).toBeGreaterThan(300);
    expect(scrolled.keyLeft).toBeCloseTo(34, 0);
    expect(scrolled.headerLeft).toBeCloseTo(34, 0);
    expect(scrolled.keyWidth).toBeGreaterThanOrEqual(160);
    await screenshot(page, 'layout-1280-scrolled-sideways-light');
    await page.$eval(GRID, (g) => {
      g.scrollLeft = 0;
    });

    // Dragging the panel as wide as it goes leaves the table its minimum.
    await page.focus(separator(PANEL));
    await page.keyboard.press('End');
    expect(await widthOf(page, GRID)).toBeGreaterThanOrEqual(500);
    await drag(page, PANEL, -600);
    expect(await widthOf(page, GRID)).toBeGreaterThanOrEqual(500);
    await page.keyboard.press('Enter');
    // The chain and graph tabs widen the panel, never past the table's minimum.
    await page.click('role=tab[name="Graph"]');
    await page.waitForSelector('.fact-panel .graph-view, .fact-panel [data-testid="graph-svg"]');
    expect(await widthOf(page, GRID)).toBeGreaterThanOrEqual(500);
    expect(await widthOf(page, '.fact-panel')).toBeGreaterThanOrEqual(380);
  });

  it('ends every cut-off text in an ellipsis at 1280×720 (narrow columns, badges, time travel)', async () => {
    await open(factHash(), 1280, 720);
    await page.waitForSelector('.fact-panel');
    const problems: string[] = [];
    problems.push(...(await cutWithoutEllipsis(page)).map((p) => `default: ${p}`));

    // Narrow every column to its minimum: memory types, badges, labels and headers are all cut.
    const names = await page.$$eval(`${GRID} [role="separator"]`, (els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    for (const name of names) {
      await page.focus(separator(name));
      await page.keyboard.press('Home');
    }
    await page.$eval(GRID, (g) => {
      g.scrollLeft = g.scrollWidth;
    });
    problems.push(...(await cutWithoutEllipsis(page)).map((p) => `narrow columns: ${p}`));
    problems.push(...(await middleEllipsisProblems(page)).map((p) => `narrow columns: ${p}`));
    await screenshot(page, 'layout-narrow-columns-light');

    // Time travel labels rows "valid then" and, when they no longer are, "now superseded".
    await forgetSizes();
    await open(`#/memories/${db.info.mainPartition}`, 1280, 720);
    await page.fill('input[type="search"]', 'home_city');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((r) => r.textContent?.includes('home_city')), ROW);
    await page.click('button[aria-label="Time travel"]');
    await page.fill('input[aria-label="As of (UTC)"]', '2025-02-01T00:00');
    await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].some((r) => r.textContent?.includes('now superseded')), ROW);
    await page.focus(separator('Status column width'));
    await page.keyboard.press('Home');
    for (let i = 0; i < 6; i++) await page.keyboard.press('ArrowRight');
    problems.push(...(await cutWithoutEllipsis(page)).map((p) => `time travel: ${p}`));
    await screenshot(page, 'layout-time-travel-status-light');

    // The other views at this size.
    for (const view of ['review', 'context', 'sessions', 'audit']) {
      await page.goto(`${base}#/${view}/${db.info.mainPartition}`);
      await page.reload();
      await page.waitForSelector('.main :is(.review-view, .context-view, .sessions-view, .audit-view)');
      await page.waitForTimeout(500);
      problems.push(...(await cutWithoutEllipsis(page)).map((p) => `${view}: ${p}`));
      await screenshot(page, `layout-${view}-1280-light`);
    }
    expect(problems).toEqual([]);
  });

  it('shows search matches in a cut-off value whole or not at all, never as a sliver', async () => {
    await open(`#/memories/${db.info.mainPartition}`, 1280, 720);
    await page.fill('input[type="search"]', 'zebra crossing');
    await page.waitForFunction(
      (sel) => [...document.querySelectorAll(sel)].length > 3 && [...document.querySelectorAll(sel)].every((r) => /zebra/i.test(r.textContent ?? '')),
      ROW,
    );
    await page.focus(separator(VALUE_COLUMN));
    await page.keyboard.press('Home');
    const slivers: string[] = [];
    let cut = 0;
    // Value widths from 140 to 300 px: the cut falls inside, before and after the matches.
    for (let step = 0; step <= 16; step++) {
      const width = await valueNow(page, VALUE_COLUMN);
      const { runs, marks, colour } = await highlightRuns(page);
      expect(colour).toMatch(/^rgb/);
      cut += marks.filter((m) => !runs.some((r) => r.row === m.row && Math.abs(r.from - m.from) <= 2)).length;
      for (const r of runs) {
        const whole = marks.some((m) => m.row === r.row && Math.abs(m.from - r.from) <= 2 && Math.abs(m.to - r.to) <= 2);
        if (!whole) slivers.push(`value ${width}px, row ${r.row}: highlight ${r.from}–${r.to} is not a whole match`);
      }
      if (step === 6) await screenshot(page, 'layout-highlights-cut-light');
      await page.keyboard.press('ArrowRight');
    }
    // The widths tried did cut matches off (else this would prove nothing).
    expect(cut).toBeGreaterThan(0);
    expect(slivers).toEqual([]);
  });

  it('keeps toasts clear of the status bar', async () => {
    for (const [w, h] of WINDOWS) {
      await open(factHash(), w, h);
      await page.waitForSelector('.fact-detail');
      await page.click('.fact-detail button:has-text("Copy id")');
      const toast = await page.waitForSelector('.toast');
      const t = await toast.boundingBox();
      const footer = await page.locator('footer.statusbar').boundingBox();
      if (!t || !footer) throw new Error('no toast or no status bar');
      expect(t.y + t.height, `${w}×${h}`).toBeLessThanOrEqual(footer.y);
      await screenshot(page, `layout-toast-${w}-light`);
    }
  });

  it('styles the export download link as a link', async () => {
    await open(`#/memories/${db.info.mainPartition}`);
    await page.click('button:has-text("Export…")');
    const dialog = page.locator('[role="dialog"]');
    await dialog.locator('[data-testid="export-start"]').click();
    const link = dialog.locator('[data-testid="export-download"]');
    await link.waitFor({ timeout: 60_000 });
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      const look = await link.evaluate((a) => {
        const s = getComputedStyle(a);
        const probe = document.createElement('span');
        probe.style.color = 'var(--accent)';
        document.body.append(probe);
        const accent = getComputedStyle(probe).color;
        probe.remove();
        return {
          color: s.color,
          accent,
          decoration: s.textDecorationLine,
          cursor: s.cursor,
          display: s.display,
          width: a.getBoundingClientRect().width,
          // Lines its words take: a Range has one box per line a text wraps over.
          lines: (() => {
            const words = document.createRange();
            words.selectNodeContents(a);
            return new Set([...words.getClientRects()].map((r) => Math.round(r.top))).size;
          })(),
          parent: a.parentElement?.getBoundingClientRect().width ?? 0,
        };
      });
      expect(look.color, scheme).toBe(look.accent);
      expect(look.decoration, scheme).toContain('underline');
      expect(look.cursor, scheme).toBe('pointer');
      // A link is as wide as its words, not a bar across the dialog (a file name long enough to
      // wrap, such as a server database's, fills the lines it wraps over).
      if (look.lines === 1) expect(look.width, scheme).toBeLessThan(look.parent);
      await screenshot(page, `layout-export-link-${scheme}`);
    }
    await page.keyboard.press('Escape');
  });

  it('names every control, splitters included, and looks right at 1440×900 and 1280×720 in light and dark', async () => {
    const cdp = await page.context().newCDPSession(page);
    const problems: string[] = [];
    for (const [w, h] of WINDOWS) {
      await open(factHash(), w, h);
      await page.waitForSelector('.fact-detail');
      await page.fill('input[type="search"]', 'home');
      await page.waitForFunction((sel) => document.querySelectorAll(`${sel} mark`).length > 0, GRID);
      problems.push(...(await unnamedControls(cdp, `memories ${w}×${h}`)));
      const separators = await page.$$eval('[role="separator"][tabindex]', (els) =>
        els.map((e) => [e.getAttribute('aria-label') ?? '', e.getAttribute('aria-valuenow') ?? '']),
      );
      expect(separators.length).toBeGreaterThan(4);
      for (const [name, now] of separators) {
        expect(name).not.toBe('');
        expect(Number(now)).toBeGreaterThan(0);
      }
      await screenshotBothSchemes(page, `layout-${w}x${h}`);
      await page.click('role=tab[name="Chain"]');
      await page.waitForSelector('.fact-panel .chain-steps, .fact-panel svg');
      await screenshot(page, `layout-${w}x${h}-chain-light`);
    }
    await cdp.detach();
    expect(problems).toEqual([]);
    expect(pageErrors(page)).toEqual([]);
  });
});
