// Proof that a flow used no pointer: every mouse or pointer event a real pointer made is recorded
// in the page (keyboard activation of a button or link also fires `click`, but with no pointer:
// detail 0 and no coordinates), so a keyboard-only walkthrough can assert that none came.
import type { Page } from 'playwright-core';

const MOUSE_EVENTS = ['mousedown', 'mouseup', 'click', 'dblclick', 'contextmenu', 'pointerdown', 'pointerup'];

/** Records pointer-made events on every page load from now on (call before the first visit). */
export async function recordPointerEvents(page: Page): Promise<void> {
  await page.addInitScript((events) => {
    const seen: string[] = [];
    (window as unknown as { __pointer: string[] }).__pointer = seen;
    for (const type of events)
      window.addEventListener(
        type,
        (e) => {
          const m = e as MouseEvent;
          if (m.detail > 0 || m.screenX !== 0 || m.screenY !== 0 || (e instanceof PointerEvent && e.pointerType !== '')) seen.push(type);
        },
        true,
      );
  }, MOUSE_EVENTS);
}

/** The pointer-made events recorded since the page loaded (or since the last `forgetPointerEvents`). */
export function pointerEvents(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __pointer: string[] }).__pointer);
}

/** Starts the record afresh (after a step that used the pointer on purpose). */
export async function forgetPointerEvents(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { __pointer: string[] }).__pointer.splice(0));
}
