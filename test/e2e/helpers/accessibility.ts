// Controls without an accessible name, as Chromium itself computes names (labels, aria-*, text)
// from its accessibility tree over the DevTools protocol: not a re-implementation of the rules.
import type { CDPSession } from 'playwright-core';

const CONTROLS = new Set([
  'button',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'link',
  'tab',
  'menuitem',
  'listbox',
  'option',
]);

export async function unnamedControls(cdp: CDPSession, where: string): Promise<string[]> {
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: Array<{ ignored?: boolean; role?: { value?: string }; name?: { value?: string } }>;
  };
  return nodes
    .filter((n) => !n.ignored && CONTROLS.has(String(n.role?.value)) && !String(n.name?.value ?? '').trim())
    .map((n) => `${where}: an unnamed ${String(n.role?.value)}`);
}
