// Keyboard shortcuts: declared once (the overlay lists this table), bound by views with
// useShortcut. Single keys and chords with modifiers; typing in a field never triggers them,
// and an open dialog keeps them to itself.
import { createContext, useContext, useEffect, useRef, type ReactNode } from 'react';
import { modalOpen } from '../ui/Dialog';

export interface ShortcutDef {
  readonly id: string;
  /** Key combos as shown and matched: 'j', 'ArrowDown', 'shift+T', 'mod+a', '?', '/'. */
  readonly keys: readonly string[];
  readonly description: string;
  readonly group: 'Global' | 'Memories table and review queue' | 'Review queue' | 'Fact detail';
}

export const SHORTCUTS = [
  { id: 'palette', keys: ['mod+k'], description: 'Command palette: go to a view, partition or fact, or run an action', group: 'Global' },
  { id: 'help', keys: ['?'], description: 'Show this list of shortcuts', group: 'Global' },
  { id: 'search', keys: ['/'], description: 'Focus the search box', group: 'Global' },
  { id: 'view.memories', keys: ['1'], description: 'Memories', group: 'Global' },
  { id: 'view.review', keys: ['2'], description: 'Review queue', group: 'Global' },
  { id: 'view.context', keys: ['3'], description: 'Context preview', group: 'Global' },
  { id: 'view.sessions', keys: ['4'], description: 'Sessions (agent state, context documents)', group: 'Global' },
  { id: 'view.audit', keys: ['5'], description: 'Audit log', group: 'Global' },
  { id: 'view.graph', keys: ['6'], description: 'Dependency graph of the open fact, with its detail', group: 'Global' },
  { id: 'timeTravel', keys: ['t'], description: 'Time travel: pick a past instant', group: 'Global' },
  { id: 'now', keys: ['shift+N'], description: 'Back to now', group: 'Global' },
  { id: 'export', keys: ['e'], description: 'Export a snapshot', group: 'Global' },
  { id: 'theme', keys: ['shift+D'], description: 'Switch light / dark theme', group: 'Global' },
  { id: 'escape', keys: ['Escape'], description: 'Close a dialog, or clear the selection', group: 'Global' },
  { id: 'row.down', keys: ['j', 'ArrowDown'], description: 'Next fact', group: 'Memories table and review queue' },
  { id: 'row.up', keys: ['k', 'ArrowUp'], description: 'Previous fact', group: 'Memories table and review queue' },
  { id: 'row.extendDown', keys: ['shift+ArrowDown'], description: 'Extend the selection down', group: 'Memories table and review queue' },
  { id: 'row.extendUp', keys: ['shift+ArrowUp'], description: 'Extend the selection up', group: 'Memories table and review queue' },
  { id: 'row.page', keys: ['PageDown', 'PageUp'], description: 'Move a page', group: 'Memories table and review queue' },
  { id: 'row.ends', keys: ['Home', 'End'], description: 'First / last loaded fact', group: 'Memories table and review queue' },
  { id: 'row.toggle', keys: ['x', ' '], description: 'Select or unselect the fact', group: 'Memories table and review queue' },
  { id: 'row.all', keys: ['mod+a'], description: 'Select every loaded fact', group: 'Memories table and review queue' },
  { id: 'row.delete', keys: ['Delete'], description: 'Delete the selection (impact preview first)', group: 'Memories table and review queue' },
  { id: 'row.copy', keys: ['c'], description: "Copy the fact's id", group: 'Memories table and review queue' },
  {
    id: 'review.dismiss',
    keys: ['d'],
    description: 'Dismiss the flag (a cause group: all of its flags; with a selection: the selection)',
    group: 'Review queue',
  },
  { id: 'review.open', keys: ['Enter'], description: 'Open the fact (a cause group: the fact that changed)', group: 'Review queue' },
  { id: 'review.expand', keys: ['ArrowRight', 'ArrowLeft'], description: "Show / hide a cause group's facts", group: 'Review queue' },
  { id: 'review.mode', keys: ['g'], description: 'Group by cause, or list flat', group: 'Review queue' },
  { id: 'detail.prev', keys: ['['], description: 'Previous detail tab (detail, chain, graph)', group: 'Fact detail' },
  { id: 'detail.next', keys: [']'], description: 'Next detail tab', group: 'Fact detail' },
] as const satisfies readonly ShortcutDef[];

export type ShortcutId = (typeof SHORTCUTS)[number]['id'];

/** The combo string of a key event, in the notation of SHORTCUTS. */
export function comboOf(e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): string {
  const parts: string[] = [];
  if (e.ctrlKey || e.metaKey) parts.push('mod');
  if (e.altKey) parts.push('alt');
  // Shift is part of printable characters like '?'; only named for letters and named keys.
  const printable = e.key.length === 1;
  const letter = printable && /\p{L}/u.test(e.key);
  if (e.shiftKey && (!printable || letter)) parts.push('shift');
  parts.push(letter && e.shiftKey ? e.key.toUpperCase() : letter ? e.key.toLowerCase() : e.key);
  return parts.join('+');
}

function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (target as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'range', 'reset'].includes(type);
  }
  return false;
}

const NAV_KEYS = new Set([
  ' ',
  'Enter',
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'shift+ArrowUp',
  'shift+ArrowDown',
]);

/** Buttons, links, tabs and other widgets keep their own Space / Enter / arrow behaviour. */
function ownsNavigation(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.dataset.shortcuts === 'grid') return false;
  return (
    target.tagName === 'BUTTON' ||
    target.tagName === 'A' ||
    target.tagName === 'INPUT' ||
    target.getAttribute('role') !== null ||
    (target.tabIndex >= 0 && target.tagName !== 'BODY' && target.tagName !== 'DIV')
  );
}

type Handler = (e: KeyboardEvent) => void;

/** Empties a text field the way typing would, so its React onChange runs. */
function clearField(field: HTMLInputElement | HTMLTextAreaElement): void {
  const proto = field instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(field, '');
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

interface Registry {
  register(id: ShortcutId, handler: Handler): () => void;
}

const ShortcutContext = createContext<Registry | null>(null);

export function ShortcutProvider({ children }: { children: ReactNode }) {
  const handlers = useRef(new Map<ShortcutId, Handler[]>());
  const registry = useRef<Registry>({
    register(id, handler) {
      const list = handlers.current.get(id) ?? [];
      list.push(handler);
      handlers.current.set(id, list);
      return () => {
        const l = handlers.current.get(id);
        if (l) l.splice(l.indexOf(handler), 1);
      };
    },
  });

  useEffect(() => {
    // The text field the last Escape left, while nothing else has been pressed since.
    let left: HTMLInputElement | HTMLTextAreaElement | null = null;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const combo = comboOf(e);
      const justLeft = left;
      left = null;
      // Escape leaves a text field (outside dialogs) keeping its text, so single-key shortcuts
      // work again at once; a second Escape right after clears what the field held.
      if (combo === 'Escape' && typingIn(e.target) && !modalOpen() && e.target instanceof HTMLElement) {
        e.preventDefault();
        if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) left = e.target;
        e.target.blur();
        return;
      }
      if (combo === 'Escape' && justLeft?.isConnected && justLeft.value !== '' && !modalOpen()) {
        e.preventDefault();
        clearField(justLeft);
        return;
      }
      // The palette opens from anywhere, a text field included; other keys belong to the field.
      if (combo !== 'Escape' && combo !== 'mod+k' && typingIn(e.target)) return;
      if (NAV_KEYS.has(combo) && ownsNavigation(e.target)) return;
      if (modalOpen()) return;
      for (const def of SHORTCUTS) {
        if (!(def.keys as readonly string[]).includes(combo)) continue;
        const list = handlers.current.get(def.id);
        const h = list?.[list.length - 1];
        if (h) {
          e.preventDefault();
          h(e);
          return;
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return <ShortcutContext.Provider value={registry.current}>{children}</ShortcutContext.Provider>;
}

/** Binds a shortcut while the component is mounted (the most recently mounted binding wins). */
export function useShortcut(id: ShortcutId, handler: Handler, enabled = true): void {
  const registry = useContext(ShortcutContext);
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!registry || !enabled) return;
    return registry.register(id, (e) => ref.current(e));
  }, [registry, id, enabled]);
}
