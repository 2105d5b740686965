// The view, partition, open fact and its tab mirrored in the URL hash (#/memories/3/fact_x?tab=chain),
// so a reload, a shared link (browser mode) or Back / Forward lands on the same place. Nothing secret goes there. A link that
// cannot be read (a broken percent-escape, an unknown view, a partition that is not a number)
// is never thrown at React: the parts that make sense are kept and each problem is reported in
// words the inspector shows.
import { DETAIL_TABS, VIEWS, VIEW_LABELS, type AppState, type DetailTab, type View } from './state';

export type Place = Partial<Pick<AppState, 'view' | 'partitionId' | 'factId' | 'detailTab'>>;

export interface ParsedLink {
  readonly place: Place;
  /** What was wrong with the link, one sentence each; empty for a good link. */
  readonly problems: readonly string[];
}

const MAX_FACT_ID = 200;

function decodePart(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

function shown(raw: string): string {
  return raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
}

export function parseHash(hash: string): ParsedLink {
  const [body = '', query = ''] = hash.replace(/^#\/?/, '').split('?', 2);
  const out: { view?: View; partitionId?: number; factId?: string; detailTab?: DetailTab } = {};
  const problems: string[] = [];
  const tab = new URLSearchParams(query).get('tab');
  if (tab !== null) {
    if ((DETAIL_TABS as readonly string[]).includes(tab)) out.detailTab = tab as DetailTab;
    else problems.push(`The link names a tab "${shown(tab)}" that does not exist (tabs: ${DETAIL_TABS.join(', ')}).`);
  }
  if (body === '') return { place: out, problems };
  const [rawView = '', rawPid = '', ...rawFact] = body.split('/');
  const decoded = [rawView, rawPid, ...rawFact].map((raw) => ({ raw, text: decodePart(raw) }));
  const broken = decoded.find((d) => d.text === undefined);
  if (broken) problems.push(`The link is damaged: "${shown(broken.raw)}" is not valid percent-encoding.`);
  const [view, pid] = decoded.map((d) => d.text);
  if (view) {
    if ((VIEWS as readonly string[]).includes(view)) out.view = view as View;
    else problems.push(`The link names a view "${shown(view)}" that does not exist (views: ${VIEWS.map((v) => VIEW_LABELS[v]).join(', ')}).`);
  }
  if (pid) {
    const n = Number(pid);
    if (Number.isInteger(n) && n > 0) out.partitionId = n;
    else problems.push(`The link names a partition "${shown(pid)}"; partitions are numbered 1, 2, 3…`);
  }
  // A fact id may itself contain "/" (formatHash encodes it, but a hand-made link may not).
  const factParts = decoded.slice(2);
  if (factParts.length > 0 && factParts.every((d) => d.text !== undefined)) {
    const fact = factParts.map((d) => d.text).join('/');
    if (fact.length > MAX_FACT_ID) problems.push(`The link's fact id is longer than ${MAX_FACT_ID} characters.`);
    else if (fact !== '') out.factId = fact;
  }
  return { place: out, problems };
}

export function formatHash(s: Pick<AppState, 'view' | 'partitionId' | 'factId'> & Partial<Pick<AppState, 'detailTab'>>): string {
  const parts: string[] = [s.view];
  let tab = '';
  if (s.partitionId !== null) {
    parts.push(String(s.partitionId));
    if (s.factId) {
      parts.push(encodeURIComponent(s.factId));
      if (s.detailTab && s.detailTab !== 'detail') tab = `?tab=${s.detailTab}`;
    }
  }
  return `#/${parts.join('/')}${tab}`;
}

/** Whether moving from one address to the next deserves its own Back step: a first landing
 * (no partition chosen yet) is completed in place, every later move is a new entry. */
export function isNewHistoryEntry(previousHash: string, nextHash: string): boolean {
  if (previousHash === nextHash) return false;
  return parseHash(previousHash).place.partitionId !== undefined;
}
