// A divider the user drags to size the pane or column beside it: role="separator" carrying its
// size in px, moved by the pointer or the arrow keys (Shift: bigger steps, Home/End: the bounds);
// a double-click or Enter puts the default size back.
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface SplitterProps {
  /** Names what it sizes, e.g. "Sidebar width". */
  readonly label: string;
  readonly value: number;
  readonly min: number;
  readonly max: number;
  /** 1 when dragging right makes the size larger (the thing sized is left of the divider), -1
   * when it makes it smaller (the thing sized is right of it). */
  readonly direction?: 1 | -1;
  onChange(px: number): void;
  onReset(): void;
  /** The size as laid out, when it may differ from `value` (a column that takes the room left). */
  measure?(divider: HTMLElement): number;
  readonly className?: string;
}

const STEP = 10;
const BIG_STEP = 50;

export function Splitter({ label, value, min, max, direction = 1, onChange, onReset, measure, className }: SplitterProps) {
  const drag = useRef<{ x: number; start: number } | null>(null);
  const set = (px: number) => onChange(Math.round(Math.max(min, Math.min(max, px))));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    // No text selection and no click on what lies under the divider while it moves.
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.focus();
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, start: measure ? measure(e.currentTarget) : value };
    document.body.classList.add('resizing');
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) set(d.start + direction * (e.clientX - d.x));
  };
  const end = () => {
    drag.current = null;
    document.body.classList.remove('resizing');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? BIG_STEP : STEP;
    const now = measure ? measure(e.currentTarget) : value;
    // The keys move the divider itself: right is right whichever side the sized thing is on.
    if (e.key === 'ArrowRight') set(now + direction * step);
    else if (e.key === 'ArrowLeft') set(now - direction * step);
    else if (e.key === 'Home') set(min);
    else if (e.key === 'End') set(max);
    else if (e.key === 'Enter') onReset();
    else return;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={Math.round(value)}
      aria-valuemin={Math.round(min)}
      aria-valuemax={Math.round(max)}
      aria-valuetext={`${Math.round(value)} pixels`}
      tabIndex={0}
      title={`${label}: drag or use the arrow keys; double-click or Enter resets`}
      className={`splitter ${className ?? ''}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onLostPointerCapture={end}
      onClick={(e) => e.stopPropagation()}
      onDoubleClick={(e) => {
        e.stopPropagation();
        onReset();
      }}
      onKeyDown={onKeyDown}
    />
  );
}
