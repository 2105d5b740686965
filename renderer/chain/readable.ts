// Words for a chain step a reviewer reads at a glance: a version named by its value and its
// speaker, a recorded reason without the engine's repetitions ("executive (executive)") or raw
// timestamps, whether two values are related enough for a word diff, and the part of a value that
// differs from the version before it. Pure, so it is unit-tested.
import type { Fact } from '../../shared/domain';
import { formatTime } from '../ui/format';
import type { WordChange } from './value-diff';

/** Who wrote a version: its speaker's identity, else its authority, else its source type. */
export function speakerOf(f: Pick<Fact, 'source'>): string {
  return f.source.identity ?? f.source.authority ?? f.source.type;
}

/** A one-line quotation of a value, at most `max` characters. */
export function quote(value: string, max = 48): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  return `“${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}”`;
}

/** A version as a reader names it: its value and who said it. */
export function versionName(f: Pick<Fact, 'value' | 'source'>, max = 48): string {
  return `${quote(f.value, max)} (${speakerOf(f)})`;
}

const ISO = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z\b/g;

/** A recorded reason as the rest of the app writes it: a word repeated in brackets after itself
 * ("executive (executive)") said once, timestamps in the app's one time format. */
export function readableReason(reason: string): string {
  return reason.replace(/\b([\w.-]+) \(\1\)/g, '$1').replace(ISO, (iso) => formatTime(iso));
}

function wordsIn(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Two values are related when at least half of the longer one's words survive the change;
 * otherwise an interleaved word diff only confuses and the two are shown one under the other. */
export function related(parts: readonly WordChange[]): boolean {
  let same = 0;
  let before = 0;
  let after = 0;
  for (const p of parts) {
    const n = wordsIn(p.text);
    if (p.kind === 'same') same += n;
    if (p.kind !== 'add') before += n;
    if (p.kind !== 'remove') after += n;
  }
  const longer = Math.max(before, after);
  return longer === 0 || same * 2 >= longer;
}

/** What a card shows of a value: all of it when it fits in `room` characters; else, when the
 * value is related to the one before it, the words it added (with a word of what stayed on each
 * side, and an ellipsis for the rest); else all of it (the card cuts it to its lines). */
export function cardText(value: string, parts: readonly WordChange[] | null, room: number): string {
  const flat = value.replace(/\s+/g, ' ').trim();
  if (flat.length <= room || !parts || !related(parts)) return flat;
  const sameAround = (from: number, step: 1 | -1): string => {
    for (let i = from; i >= 0 && i < parts.length; i += step) {
      const p = parts[i];
      if (!p || p.kind === 'remove') continue;
      if (p.kind === 'add') return '';
      const words = p.text.trim().split(/\s+/).filter(Boolean);
      return (step === 1 ? words[0] : words[words.length - 1]) ?? '';
    }
    return '';
  };
  const pieces: string[] = [];
  parts.forEach((p, i) => {
    if (p.kind !== 'add' || !p.text.trim()) return;
    const before = sameAround(i - 1, -1);
    const after = sameAround(i + 1, 1);
    pieces.push([before, p.text.trim(), after].filter(Boolean).join(' '));
  });
  if (pieces.length === 0) return flat;
  const first = parts[0];
  const last = parts[parts.length - 1];
  const lead = first && first.kind === 'add' ? '' : '…';
  const trail = last && last.kind === 'add' ? '' : '…';
  return `${lead}${pieces.join(' … ')}${trail}`;
}
