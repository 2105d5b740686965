// Shortening a fact key without losing what tells it apart: keys share their beginnings
// (`org.department.finance.head` and `org.department.finance.head_corrected`), so a key that
// does not fit keeps its tail (the last two dotted segments) and gives way in the middle.
// Pure, so the table, chain cards, palette and graph labels all cut keys the same way.

/** Where the distinguishing tail of `key` starts: after the dot before its last two segments
 * (after the last dot for a two-segment key); 0 when the key has no dots (it is all tail). */
export function keyTailStart(key: string): number {
  const last = key.lastIndexOf('.', key.length - 2);
  if (last <= 0) return 0;
  const before = key.lastIndexOf('.', last - 1);
  return before > 0 ? before + 1 : last + 1;
}

/** Characters of the beginning kept beside a whole tail. */
const HEAD_MIN = 4;

/** `text` in at most `max` characters: whole when it fits, else its beginning, an ellipsis and
 * its distinguishing tail (whole while a few characters of the beginning still fit beside it,
 * else the last half of the room). */
export function middleEllipsis(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, Math.max(0, max));
  const room = max - 1;
  const tail = text.slice(keyTailStart(text));
  const tailRoom = tail.length > 0 && tail.length <= room - HEAD_MIN ? tail.length : Math.ceil(room / 2);
  const keep = Math.min(tailRoom, room);
  return `${text.slice(0, room - keep)}…${text.slice(text.length - keep)}`;
}
