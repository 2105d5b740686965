// What changed between two consecutive versions' values, word by word: the app's token diff
// run over the words and single spaces of each value.
import { diffTokens, type DiffOp } from '../ui/diff';

export interface WordChange {
  readonly kind: DiffOp['kind'];
  readonly text: string;
}

/** Words and the single spaces between them (whitespace runs count as one space). */
function words(text: string): string[] {
  return text.replace(/\s+/g, ' ').match(/\S+| /g) ?? [];
}

/** Runs of unchanged, removed and added words (adjacent tokens of one kind merged). */
export function diffWords(before: string, after: string): WordChange[] {
  const out: Array<{ kind: DiffOp['kind']; text: string }> = [];
  if (before === after) return before ? [{ kind: 'same', text: before }] : [];
  for (const op of diffTokens(words(before), words(after))) {
    const last = out[out.length - 1];
    if (last && last.kind === op.kind) last.text += op.text;
    else out.push({ kind: op.kind, text: op.text });
  }
  return out;
}
