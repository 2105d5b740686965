// "2 min ago": how long ago an instant was, in the words a reviewer scans for ("just now",
// minutes, hours, days), falling back to the date beyond a month.
import { formatTime } from '../ui/format';

export function timeAgo(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const s = Math.round((now - at) / 1000);
  if (s < 0) return `at ${formatTime(iso)}`;
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d <= 31) return d === 1 ? 'yesterday' : `${d} days ago`;
  return `on ${formatTime(iso)}`;
}
