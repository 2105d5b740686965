// Time travel: pick a past instant (a scrubber over the partition's history, with date ticks
// and a strip showing where changes are dense, or an exact time) and the table, the fact
// detail, the chain view, the partition counts and the context preview show the state then.
import { useEffect, useState } from 'react';
import type { Timeline } from '../../shared/inspect';
import { useAppState, useDispatch } from '../app/state';
import { useQuery } from '../api/hooks';
import { useShortcut } from '../shortcuts/shortcuts';
import { Button, IconButton } from '../ui/Button';
import { DateTimeInput } from '../ui/DateTimeInput';
import { formatDate, formatTime, plural } from '../ui/format';
import { ChangesDialog } from './ChangesDialog';
import { timeTicks } from './ticks';

const STEPS = 1000;
const DENSITY_BUCKETS = 80;
const AS_OF_INPUT_ID = 'time-travel-as-of';

/** Whether the time-travel bar is open: the `t` shortcut opens it (and focuses the exact-time
 * field), a past instant in the address opens it, `shift+N` goes back to now. */
export function useTimeTravelPanel(): { open: boolean; setOpen: (open: boolean) => void } {
  const { asOf } = useAppState();
  const dispatch = useDispatch();
  const [open, setOpen] = useState(asOf !== null);
  useEffect(() => {
    if (asOf !== null) setOpen(true);
  }, [asOf]);
  useShortcut('timeTravel', () => {
    setOpen(true);
    setTimeout(() => document.getElementById(AS_OF_INPUT_ID)?.focus(), 0);
  });
  useShortcut('now', () => dispatch({ type: 'asOf', asOf: null }));
  return { open, setOpen };
}

/** The top bar's toggle. */
export function TimeTravelButton({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <Button small onClick={onToggle} aria-label="Time travel" aria-expanded={open} title="Time travel (t)">
      Time travel
    </Button>
  );
}

const HEIGHT = 24;

/** Bars of change counts (facts taking effect, validity ending) over the history; a log scale
 * (and a floor) keeps a slice with one change visible beside a bulk import. */
function DensityStrip({ timeline }: { timeline: Timeline }) {
  const buckets = timeline.buckets;
  const counts = buckets.map((b) => b.added + b.ended);
  const max = Math.max(1, ...counts);
  const total = counts.reduce((a, b) => a + b, 0);
  const busiest = buckets[counts.indexOf(Math.max(...counts))];
  const h = (c: number) => (c === 0 ? 0 : Math.max(5, (Math.log1p(c) / Math.log1p(max)) * HEIGHT));
  return (
    <svg
      className="time-density"
      viewBox={`0 0 ${buckets.length} ${HEIGHT}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={`Changes over time: ${plural(total, 'change')}${busiest && total > 0 ? `, most around ${formatDate(busiest.start)}` : ''}`}
      data-testid="time-density"
    >
      {buckets.map((b, i) => {
        const all = h(b.added + b.ended);
        const added = all * (b.added / Math.max(1, b.added + b.ended));
        return (
          <g key={b.start} data-changes={b.added + b.ended}>
            <title>{`From ${formatTime(b.start)}: ${plural(b.added, 'fact')} took effect, ${plural(b.ended, 'fact')} stopped being valid`}</title>
            <rect className="time-density-ended" x={i + 0.08} width={0.84} y={HEIGHT - all} height={all - added} />
            <rect className="time-density-added" x={i + 0.08} width={0.84} y={HEIGHT - added} height={added} />
          </g>
        );
      })}
    </svg>
  );
}

function DateTicks({ lo, hi }: { lo: number; hi: number }) {
  const ticks = timeTicks(lo, hi, 7);
  return (
    <div className="time-ticks" aria-hidden="true" data-testid="time-ticks">
      {ticks.map((t) => (
        <span key={t.at} className="time-tick" style={{ left: `${((t.at - lo) / (hi - lo)) * 100}%` }}>
          {t.label}
        </span>
      ))}
    </div>
  );
}

/** The bar under the top bar while time travelling. */
export function TimeTravel({ onClose }: { onClose: () => void }) {
  const { partitionId, asOf } = useAppState();
  const dispatch = useDispatch();
  const timeline = useQuery('facts.timeline', partitionId === null ? null : { partitionId, buckets: DENSITY_BUCKETS });
  const lo = timeline.data?.first ? Date.parse(timeline.data.first) : NaN;
  const hi = timeline.data?.last ? Date.parse(timeline.data.last) : NaN;
  const ready = Number.isFinite(lo) && Number.isFinite(hi);
  const current = asOf ? Date.parse(asOf) : hi;
  const [draft, setDraft] = useState<number | null>(null);
  const [comparing, setComparing] = useState(false);

  const sliderValue = draft ?? (ready && hi > lo ? Math.round(((Math.min(Math.max(current, lo), hi) - lo) / (hi - lo)) * STEPS) : STEPS);
  const commitSlider = (v: number) => {
    setDraft(null);
    if (!ready) return;
    if (v >= STEPS) dispatch({ type: 'asOf', asOf: null });
    else dispatch({ type: 'asOf', asOf: new Date(lo + ((hi - lo) * v) / STEPS).toISOString() });
  };

  return (
    <div className="time-travel row" role="group" aria-label="Time travel">
      <div className="time-scale">
        {timeline.data && timeline.data.buckets.length > 0 ? <DensityStrip timeline={timeline.data} /> : <div className="time-density" />}
        <label className="time-slider-label">
          <span className="sr-only">As of (slider over the partition&apos;s history)</span>
          <input
            type="range"
            min={0}
            max={STEPS}
            value={sliderValue}
            disabled={!ready}
            aria-valuetext={asOf ? formatTime(asOf) : 'now'}
            onChange={(e) => setDraft(Number(e.target.value))}
            onMouseUp={(e) => commitSlider(Number((e.target as HTMLInputElement).value))}
            onKeyUp={(e) => commitSlider(Number((e.target as HTMLInputElement).value))}
            onTouchEnd={(e) => commitSlider(Number((e.target as HTMLInputElement).value))}
            className="time-slider"
          />
        </label>
        {ready && hi > lo ? <DateTicks lo={lo} hi={hi} /> : <div className="time-ticks" />}
      </div>
      <label className="row">
        <span className="sr-only">As of (UTC)</span>
        <DateTimeInput
          id={AS_OF_INPUT_ID}
          value={draft !== null && ready ? new Date(lo + ((hi - lo) * draft) / STEPS).toISOString() : asOf}
          onChange={(iso) => dispatch({ type: 'asOf', asOf: iso ?? null })}
          aria-label="As of (UTC)"
        />
      </label>
      <Button small onClick={() => dispatch({ type: 'asOf', asOf: null })} disabled={asOf === null} aria-label="Now (leave time travel)">
        Now
      </Button>
      <Button small onClick={() => setComparing(true)} disabled={!ready} aria-label="What changed between two times" title="What changed between two times">
        What changed…
      </Button>
      <IconButton
        label="Close time travel"
        className="btn-ghost"
        onClick={() => {
          dispatch({ type: 'asOf', asOf: null });
          onClose();
        }}
      >
        ✕
      </IconButton>
      {comparing && partitionId !== null && ready ? (
        <ChangesDialog partitionId={partitionId} first={lo} last={hi} asOf={asOf} onClose={() => setComparing(false)} />
      ) : null}
    </div>
  );
}

export function TimeTravelBanner() {
  const { asOf } = useAppState();
  const dispatch = useDispatch();
  if (!asOf) return null;
  return (
    <div className="time-banner row" role="status" data-testid="time-banner">
      <span className="grow">
        Showing the state as of <strong>{formatTime(asOf)}</strong>: only facts valid then. The fact detail, chains and partition counts show that instant;
        context previews start from it.
      </span>
      <Button small onClick={() => dispatch({ type: 'asOf', asOf: null })}>
        Back to now
      </Button>
    </div>
  );
}
