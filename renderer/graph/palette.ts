// The graph's colours, read from the theme's CSS variables (the canvas cannot use CSS), and the
// fill of a node by status and memory type.
import { cssVar } from '../theme/css-var';
import type { GraphNodeData } from './simulation';

export interface Palette {
  user: string;
  capability: string;
  organizational: string;
  superseded: string;
  proposal: string;
  review: string;
  edge: string;
  path: string;
  selected: string;
  text: string;
  bg: string;
}

export function readPalette(): Palette {
  return {
    user: cssVar('--mt-user', '#2f6fe0'),
    capability: cssVar('--mt-capability', '#8b45d6'),
    organizational: cssVar('--mt-organizational', '#0f8f80'),
    superseded: cssVar('--st-superseded', '#8a909c'),
    proposal: cssVar('--st-proposal', '#c77700'),
    review: cssVar('--st-review', '#d9342b'),
    edge: cssVar('--border-strong', '#b6bac4'),
    path: cssVar('--accent', '#2a62d4'),
    selected: cssVar('--text', '#1b1e24'),
    text: cssVar('--muted', '#5b6270'),
    bg: cssVar('--surface', '#ffffff'),
  };
}

export function fillOf(n: GraphNodeData, p: Palette): string {
  if (n.status === 'proposal') return p.proposal;
  if (!n.isValid) return p.superseded;
  return n.memoryType === 'capability' ? p.capability : n.memoryType === 'organizational' ? p.organizational : p.user;
}
