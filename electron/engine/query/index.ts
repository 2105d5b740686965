// The inspector's read side of the engine (plus dismissing review flags): one import for callers.
export { countFacts, listFacts, planFor, type ListFactsRequest, type PagePlan } from './list-facts';
export { factAudit, factDetail } from './fact-detail';
export { chainFor } from './chain';
export { neighbourhood, propagationPath } from './neighbourhood';
export { dismissReview, reviewQueue, undoDismissReview } from './review';
export { dismissCause, reviewGroups } from './review-groups';
export { toFtsQuery } from './fts';
export { briefsOf } from './row-view';
export { changesBetween, timeline } from './history';
