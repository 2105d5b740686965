// What changed between two consecutive versions' values, word by word: the line diff the app
// already has, run over one word (or run of spaces) per line.
import { diffLines, type DiffOp } from '../ui/diff';

export interface WordChange {
  readonly kind: DiffOp['kind'];
  readonly text: string;
}

function words(text: string): string {
  return (text.replace(/\s+/g, ' ').match(/\S+| /g) ?? []).join('\n');
}

/** Runs of unchanged, removed and added words (adjacent tokens of one kind merged). */
export function diffWords(before: string, after: string): WordChange[] {
  const out: Array<{ kind: DiffOp['kind']; text: string }> = [];
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  for (const op of diffLines(words(before), words(after)).ops) {
    if (op.text === '') continue;
    const last = out[out.length - 1];
    if (last && last.kind === op.kind) last.text += op.text;
    else out.push({ kind: op.kind, text: op.text });
  }
  return out;
}
