// The full `state_based` assembly: identity; environment (now, freshest signal per
// subject); valid facts by relevance (FTS5 BM25 over key and value, relevant constraints first)
// within the facts' share of the rest (70% by default), then unmatched facts newest first; the
// org documents the identity may read; the session's agent state; then the curated working set.
// No superseded value comes back (turns asserting one stay out, or are marked history for
// why-questions; facts quoting one as wrong have it withheld); labelled text outside the
// identity's audience or scope stays out.
// Scale: facts are never all read. FTS gives a bounded candidate list per term, the tail streams
// from the (partition_id, ts) index, only tried lines are tokenised, filling stops when full.
import type { ItemMark, ScoreComponent } from '../../../../shared/assembly';
import { agentStateRecord } from '../../agent-state/agent-state';
import { DeadValues, normalised, restatesAgainst, type DeadSource, type Reaffirmed } from '../curation';
import { asksForHistory, continuity, episodes } from '../conversation';
import { agentStateLines, environmentLines, factLine, factMarks, identityLines, isTurn, itemLine, itemMarks, oneLine } from '../format';
import { contrastFact, contrastWith, readTurn, type ContrastFact, type ValueContrast } from '../../facts/turn-conflicts';
import { freshSignals, sameSubject } from '../freshness';
import { scopeLabelOf } from '../labels';
import { withheldAudience } from '../permissions';
import type { Exclusion } from '../provenance';
import { permissionExclusion, readableItems, scopeExclusion } from '../provenance';
import {
  deadCountExceeds,
  deadFacts,
  diedSince,
  leanFacts,
  factTimes,
  predecessors,
  identityOf,
  orgDocuments,
  overruledProposals,
  relevantFacts,
  shadowedInView,
  signals,
  successorValues,
  validFactsNewestFirst,
  validValueExists,
  type LeanFact,
  type WorkingRow,
} from '../source';
import { inferScope } from '../../facts/inference';
import { ftsTerm, queryTerms, queryWords, scoreTexts, stemSet } from '../terms';
import { ContextBuilder, type ItemRef } from '../text';
import type { StrategyInput, StrategyOutput } from './types';

export const STATE_SECTIONS = [
  { name: 'identity', title: 'Identity' },
  { name: 'environment', title: 'Environment' },
  { name: 'constraints', title: 'Constraints (check all)' },
  { name: 'facts', title: 'Current facts' },
  { name: 'review', title: 'Must recalculate (depends on a superseded fact, or contradicted by a turn)' },
  { name: 'hypothetical', title: 'Hypothetical and draft (not commitments)' },
  { name: 'documents', title: 'Organisational documents' },
  { name: 'agent_state', title: 'Agent state (this session)' },
  { name: 'working', title: 'Working set' },
] as const;

/** Superseded values checked exhaustively up to this many; beyond it, the predecessors of the
 * best candidates and of the facts established since the first turn (all a turn could quote). */
const DEAD_LIMIT = 500;
/** Facts established during the session whose predecessors are checked (large partitions). */
const RECENT_LIMIT = 2_000;
/** Matches scored per query term at least (newest first): bounds relevance cost at any size. */
const PER_TERM = 100;
/** Facts whose words expand the query when judging which turns are relevant. */
const FEEDBACK_FACTS = 3;
const FEEDBACK_WEIGHT = 0.5;
/** Relevant constraints rank above equally relevant facts. */
const CONSTRAINT_BOOST = 1.5;

export interface StateBasedTuning {
  /** After relevant facts, fill the facts' share with the others, newest first. */
  readonly includeUnmatchedFacts: boolean;
  /** Working items with no relevance to the query: left out, or only after relevant ones. */
  readonly unmatchedItems: 'exclude' | 'last';
}

export const DEFAULT_TUNING: StateBasedTuning = { includeUnmatchedFacts: true, unmatchedItems: 'exclude' };

function sectionOf(marks: readonly ItemMark[]): string {
  if (marks.includes('needs_review')) return 'review';
  if (marks.includes('hypothetical') || marks.includes('draft')) return 'hypothetical';
  if (marks.includes('constraint')) return 'constraints';
  return 'facts';
}

export function assembleStateBased(input: StrategyInput, tuning: StateBasedTuning = DEFAULT_TUNING): StrategyOutput {
  const { ctx, req, view, tokenizer, log } = input;
  const builder = new ContextBuilder(tokenizer, req.budget, STATE_SECTIONS);
  const identity = identityOf(ctx, req.sessionId);

  /** Labels in the text itself: an audience the identity is outside, or another scope. */
  const labelled = (text: string): Exclusion | undefined => {
    const audience = withheldAudience(text, identity);
    if (audience !== null) return permissionExclusion(audience);
    const scope = scopeLabelOf(text);
    if (scope !== undefined && scope.toLowerCase() !== (req.taskId ?? '').toLowerCase() && scope.toLowerCase() !== req.sessionId.toLowerCase()) {
      return { reason: 'scope', detail: `labelled for ${scope}` };
    }
    return undefined;
  };

  // Layers 1 and 4: identity and environment first (only a tiny budget can refuse them).
  const env = freshSignals(signals(ctx, view.now), view.now);
  for (const line of identityLines(identity)) builder.tryAdd('identity', line);
  for (const line of environmentLines(view.now, env.fresh, input.fetched)) builder.tryAdd('environment', line);
  const base = builder.used;
  const factLimit = base + Math.floor(Math.max(0, req.budget - base) * req.factShare);

  // Layer 2: relevance candidates (BM25), constraints first among them.
  const terms = queryTerms(req.query);
  // Enough candidates to fill the facts' share with short lines (about 20 tokens each).
  const candidateLimit = Math.min(5_000, Math.max(50, Math.ceil((factLimit - base) / 20)));
  const perTerm = Math.max(PER_TERM, Math.ceil(candidateLimit / Math.max(1, terms.length)) + 50);
  const relevant = relevantFacts(
    ctx,
    view,
    queryWords(req.query).map((w) => ftsTerm(w.stem, w.word)),
    perTerm,
    candidateLimit,
  );
  relevant.sort((a, b) => b.is_constraint - a.is_constraint || a.bm25 - b.bm25 || b.rid - a.rid);
  /** Reads the facts of candidates from..from+n that the scoring did not already read. */
  const readFacts = (from: number, n: number): void => {
    const want = relevant.slice(from, from + n).filter((c) => !c.fact);
    if (want.length === 0) return;
    const got = leanFacts(
      ctx,
      want.map((c) => c.rid),
    );
    for (const c of want) c.fact = got.get(c.rid);
  };

  // Dead text: superseded values, overruled proposals (and stale signals) that nothing may bring back.
  // Small partitions: every dead value. Large ones: the predecessors of the facts most likely
  // to be shown (the values a turn or a fact on the same subject would quote).
  const items = readableItems(ctx, view, req.sessionId, log);
  let dead: DeadSource[];
  if (!deadCountExceeds(ctx, view, DEAD_LIMIT)) dead = deadFacts(ctx, view, DEAD_LIMIT);
  else {
    dead = predecessors(
      ctx,
      view,
      relevant.slice(0, 200).map((c) => c.id),
    );
    // Whatever a turn could assert "since superseded" died after the turn was said.
    const firstTurn = items.reduce<string | undefined>((min, w) => (min === undefined || w.created_at < min ? w.created_at : min), undefined);
    if (firstTurn !== undefined) dead.push(...diedSince(ctx, view, firstTurn, RECENT_LIMIT));
  }
  dead.push(...overruledProposals(ctx, view, DEAD_LIMIT));
  for (const { signal, by } of env.stale)
    dead.push({ id: `environment:${signal.key}`, key: signal.key, value: signal.value, valid_to: by.observed_at, successor_value: by.value });
  const deadValues = new DeadValues(
    dead,
    (value) => validValueExists(ctx, view, value),
    (ids) => successorValues(ctx, ids),
  );

  // needs_review counts only if what caused it had happened by the as-of time.
  const needsReview = (f: LeanFact): boolean => {
    if (f.needs_review !== 1) return false;
    if (view.asOf === null || !f.review_cause_fact) return true;
    const t = factTimes(ctx, [f.review_cause_fact]).get(f.review_cause_fact);
    return t === undefined || t <= view.asOf;
  };

  // Hypothetical and draft material belongs to its what-if view: its own session or task, or a
  // query that is itself a what-if or about a draft. Any other read leaves it out, so that it
  // cannot steer a decision on what holds.
  const whatIf = inferScope(req.query) === 'hypothetical' || inferScope(req.query) === 'draft';
  const imagined = (marks: readonly ItemMark[], scopeId: string | null): Exclusion | undefined => {
    if (whatIf || !(marks.includes('hypothetical') || marks.includes('draft'))) return undefined;
    if (scopeId !== null && (scopeId === req.sessionId || scopeId === req.taskId)) return undefined;
    return { reason: 'scope', detail: 'hypothetical or draft, outside its what-if view' };
  };
  // A scoped write shadows the global fact it names inside its own session or task only.
  const shadowed = shadowedInView(ctx, view, req);
  const placed = new Set<string>();
  const shown: string[] = [];
  const shownFacts: LeanFact[] = [];
  const feedback: LeanFact[] = [];
  let full = false;
  /** `relevance`: BM25 (negated, higher is better) of a matched fact, 0 for an unmatched one. */
  const place = (f: LeanFact, relevance: number, boosted = false): boolean => {
    const score = boosted ? relevance * CONSTRAINT_BOOST : relevance;
    placed.add(f.id);
    const out = scopeExclusion(f, req, shadowed) ?? labelled(f.value) ?? imagined(factMarks(f, false), f.scope_id);
    if (out) {
      log.exclude('fact', f.id, f.key, out);
      return true;
    }
    const marks = factMarks(f, needsReview(f));
    const { text: value, redacted } = deadValues.redact(f.value);
    if (redacted) marks.push('redacted');
    const components: ScoreComponent[] = [{ name: 'relevance', value: relevance }];
    if (boosted) components.push({ name: 'constraint', value: CONSTRAINT_BOOST });
    const ref: ItemRef = { kind: 'fact', id: f.id, label: f.key, score, components, marks };
    if (!builder.tryAdd(sectionOf(marks), factLine(f, marks, value), ref, { limit: factLimit })) return false;
    shown.push(normalised(f.value));
    shownFacts.push(f);
    if (score > 0 && feedback.length < FEEDBACK_FACTS) feedback.push(f);
    return true;
  };

  for (let i = 0; i < relevant.length; i++) {
    const c = relevant[i] as (typeof relevant)[number];
    if (!c.fact) readFacts(i, 64);
    if (!c.fact) continue;
    if (!place(c.fact, -c.bm25, c.is_constraint === 1)) {
      full = true;
      break;
    }
  }
  if (!full && tuning.includeUnmatchedFacts) {
    for (const f of validFactsNewestFirst(ctx, view)) {
      if (placed.has(f.id)) continue;
      if (!place(f, 0)) break;
    }
  }

  // Organisational documents: denied ones are recorded, readable ones ranked by the query.
  const docs = orgDocuments(ctx, identity);
  for (const d of docs.denied) log.exclude('document', d.id, d.title, { reason: 'permission', detail: `needs one of: ${d.acl.join(', ')}` });
  if (docs.allowed.length > 0) {
    const weights = new Map(terms.map((t) => [t, 1]));
    const scores =
      terms.length > 0
        ? scoreTexts(
            docs.allowed.map((d) => `${d.title} ${d.body}`),
            weights,
          )
        : docs.allowed.map(() => 0);
    const ranked = docs.allowed.map((d, i) => ({ d, score: scores[i] ?? 0 })).sort((a, b) => b.score - a.score || (a.d.createdAt < b.d.createdAt ? 1 : -1));
    for (const { d, score } of ranked) {
      const out = labelled(d.body);
      if (out) {
        log.exclude('document', d.id, d.title, out);
        continue;
      }
      if (terms.length > 0 && score === 0) {
        log.exclude('document', d.id, d.title, { reason: 'not_relevant' });
        continue;
      }
      const ref: ItemRef = { kind: 'document', id: d.id, label: d.title, score, components: [{ name: 'relevance', value: score }], marks: [] };
      if (!builder.tryAdd('documents', `- ${oneLine(d.title)}: ${oneLine(d.body)}`, ref)) log.exclude('document', d.id, d.title, { reason: 'budget' });
    }
  }

  // The session's agent state (assumptions, expectations, hypotheses, understanding), as stored
  // now: it has no history, so an assembly as of an earlier time leaves it out.
  const agent = agentStateRecord(ctx, req.sessionId);
  if (agent.state && (view.asOf === null || (agent.updatedAt !== null && agent.updatedAt <= view.asOf))) {
    for (const line of agentStateLines(agent.state)) {
      // An entry quoting a superseded value is stale agent state: left out, like such a turn.
      if (labelled(line) || deadValues.find(line, { restates: false })) continue;
      if (!builder.tryAdd('agent_state', line)) break;
    }
  }

  // Layer 3: the curated working set with what remains.
  const freshStems = env.fresh.map((s) => ({ s, stems: stemSet(s.value) }));
  const history = asksForHistory(req.query);
  // The conversation as said by the as-of time, for "was this said again later?".
  const said = items.filter((w) => isTurn(w) && (view.asOf === null || w.created_at <= view.asOf));
  const saidStems = new Map<string, ReadonlySet<string>>();
  const reaffirmed: Reaffirmed = (value, deadValue, at) =>
    said.some((w) => {
      if (w.created_at <= at) return false;
      let stems = saidStems.get(w.id);
      if (!stems) saidStems.set(w.id, (stems = stemSet(w.value)));
      return restatesAgainst(stems, value, deadValue);
    });
  // The shown facts as turns are compared with them, read once and only if a turn needs them.
  let contrastFacts: ContrastFact<LeanFact>[] | undefined;
  const contrastable = (): ContrastFact<LeanFact>[] =>
    (contrastFacts ??= shownFacts.map((f) => contrastFact(f)).filter((f): f is ContrastFact<LeanFact> => f !== null));
  const usable: Array<{ w: WorkingRow; text: string; redacted: boolean; superseded?: boolean }> = [];
  for (const w of items) {
    const why = itemExclusion(w);
    if ('reason' in why) log.exclude('working_item', w.id, w.key, why);
    else usable.push({ w, ...why });
  }
  function itemExclusion(w: WorkingRow): Exclusion | { text: string; redacted: boolean; superseded?: boolean } {
    if (view.asOf !== null && w.created_at > view.asOf) return { reason: 'future', detail: `created ${w.created_at}` };
    if (w.expires_at !== null && w.expires_at <= view.now) return { reason: 'expired', detail: `expired ${w.expires_at}` };
    const label = labelled(w.value);
    if (label) return label;
    let text = w.value;
    let redacted = false;
    const hit = deadValues.find(w.value, { restates: isTurn(w), at: w.created_at, ...(isTurn(w) ? { reaffirmed } : {}) });
    if (hit) {
      // A correction that quotes the old value keeps its news with the quote withheld.
      const r = hit.how === 'quotes' ? deadValues.redact(w.value, { at: w.created_at, corrections: true }) : { text, redacted: false };
      if (!r.redacted || deadValues.find(r.text, { restates: isTurn(w), at: w.created_at })) {
        // A why / what-happened question is about the history: the turn stays, marked as such.
        if (history && isTurn(w)) return { text, redacted: false, superseded: true };
        return { reason: 'superseded', detail: `${hit.how} the superseded value of "${hit.fact.key}" (${hit.fact.id})` };
      }
      ({ text, redacted } = r);
    }
    // A turn recounting a shown fact against the values it replaced carries those values as if
    // current; the fact already states the current one.
    const recount = isTurn(w) ? firstContrast(text, contrastable()) : null;
    if (recount) {
      if (history) return { text, redacted: false, superseded: true };
      return { reason: 'superseded', detail: `states ${recount.c.others} beside the current ${recount.c.current} of "${recount.f.key}" (${recount.f.id})` };
    }
    // A summary naming a superseded (or overruled) value beside the one that replaced it keeps
    // its sentences about the current value only.
    const told = isTurn(w) ? deadValues.recounts(text, w.created_at) : undefined;
    if (told) {
      if (history) return { text, redacted: false, superseded: true };
      const rest = deadValues.withoutRecounted(text, told);
      if (rest === null || deadValues.recounts(rest, w.created_at))
        return { reason: 'superseded', detail: `recounts the superseded value of "${told.fact.key}" (${told.fact.id}) beside the value that replaced it` };
      text = rest;
      redacted = true;
    }
    const draft = imagined(itemMarks(w), null);
    if (draft) return draft;
    const stems = stemSet(text);
    const newer = freshStems.find((f) => f.s.observed_at > w.created_at && sameSubject(stems, f.stems));
    if (newer) return { reason: 'superseded', detail: `older than the environment signal "${newer.s.key}" observed ${newer.s.observed_at}` };
    const n = normalised(text);
    if (n.length > 0 && shown.some((v) => v === n || (n.length >= 24 && v.includes(n))))
      return { reason: 'not_relevant', detail: 'repeats a fact already in the context' };
    return { text, redacted };
  }

  const weights = new Map<string, number>(terms.map((t) => [t, 1]));
  for (const f of feedback) for (const s of stemSet(`${f.key.replace(/_/g, ' ')} ${f.value}`)) if (!weights.has(s)) weights.set(s, FEEDBACK_WEIGHT);
  const own =
    weights.size > 0
      ? scoreTexts(
          usable.map((u) => u.text),
          weights,
        )
      : usable.map(() => 0);
  const scores = episodes(
    continuity(
      own,
      usable.map((u) => isTurn(u.w)),
    ),
    usable.map((u) => u.w),
  );
  // A question about what happened that meets nothing in the working set ("what impact did this
  // have?") points at the conversation itself: relevance cannot choose, recency does.
  const blind = history && scores.every((x) => x === 0);
  const order = new Map(usable.map((u, i) => [u.w.id, i]));
  const ranked = usable
    .map((u, i) => ({ ...u, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score || (order.get(b.w.id) ?? 0) - (order.get(a.w.id) ?? 0));
  let room = true;
  for (const { w, text, redacted, superseded, score } of ranked) {
    if (terms.length > 0 && score === 0 && !blind && tuning.unmatchedItems === 'exclude') {
      log.exclude('working_item', w.id, w.key, {
        reason: 'not_relevant',
        detail: 'shares no term with the query or the facts it matched, nor an episode with a turn that does',
      });
      continue;
    }
    if (!room) {
      log.exclude('working_item', w.id, w.key, { reason: 'budget' });
      continue;
    }
    const marks = itemMarks(w);
    if (redacted) marks.push('redacted');
    if (superseded) marks.push('superseded');
    const ref: ItemRef = { kind: 'working_item', id: w.id, label: w.key, score, components: [{ name: 'relevance', value: score }], marks };
    if (!builder.tryAdd('working', itemLine(w, marks, text), ref, { order: order.get(w.id) ?? 0 })) {
      room = false;
      log.exclude('working_item', w.id, w.key, { reason: 'budget' });
    }
  }

  const matched = new Set(relevant.map((c) => c.id));
  const overBudget: Exclusion = { reason: 'budget', detail: `the facts' share (${Math.round(req.factShare * 100)}%) was full` };
  const unmatched: Exclusion = { reason: 'not_relevant', detail: 'no query term in its key or value' };
  return { builder, unplaced: (id) => (tuning.includeUnmatchedFacts || matched.has(id) ? overBudget : unmatched) };
}

/** The first shown fact a turn recounts against values it replaced (see contrastWith). */
function firstContrast(turn: string, facts: readonly ContrastFact<LeanFact>[]): { f: LeanFact; c: ValueContrast } | null {
  if (facts.length === 0) return null;
  const reading = readTurn(turn);
  for (const f of facts) {
    const c = contrastWith(reading, f);
    if (c) return { f: f.fact, c };
  }
  return null;
}
