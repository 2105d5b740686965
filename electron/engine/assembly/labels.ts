// Inline labels that memory text may carry and state_based honours: a sensitivity label
// ("[RESTRICTED: ... restricted to <audience>]", also CONFIDENTIAL / INTERNAL ONLY) checked
// against the identity (permission mirroring for facts, which have no ACL column), and a scope
// label ("[SCOPE: <name>]") that keeps an item inside its task or session. Any leading bracketed
// label ("[VP]", "[DRAFT]") is about the text, not part of what anyone said.
import type { Identity } from '../../../shared/domain';

const RESTRICTION = /^\s*\[(?:RESTRICTED|CONFIDENTIAL|INTERNAL ONLY|PRIVATE)\b[^\]]*?\b(?:restricted to|only for|limited to|visible to)\s+([^\]]+?)\s*\]/i;
const SCOPE_LABEL = /^\s*\[SCOPE:\s*([^\]]+?)\s*\]/i;

/** Seniority implied by a title: 5 C-suite, 4 VP, 3 director/head, 2 manager/lead, 1 other. */
export function seniority(title: string): number {
  const t = title.toLowerCase();
  if (/\b(c-suite|c-level|chief|ceo|cfo|cto|coo|cio|ciso|president|founder|board)\b/.test(t) && !/\bvice president\b/.test(t)) return 5;
  if (/\b(vp|svp|evp|vice president)\b/.test(t)) return 4;
  if (/\b(director|head of|head)\b/.test(t)) return 3;
  if (/\b(manager|lead|leadership|supervisor|principal)\b/.test(t)) return 2;
  return 1;
}

const GENERIC = new Set(['team', 'teams', 'staff', 'members', 'only', 'group', 'department', 'dept', 'leadership', 'and', 'the', 'of', 'above', 'or', 'plus']);

function tokens(text: string): string[] {
  return text.match(/[a-z0-9]+/g) ?? [];
}

function initials(text: string): string {
  return (text.toLowerCase().match(/[a-z]+/g) ?? []).map((w) => w[0]).join('');
}

/**
 * May `identity` see text restricted to `audience`? A "X+" or "X and above" audience, or a rank
 * alone (C-suite, VP, Director), is a seniority floor; otherwise the audience names a group
 * (department or permission, acronyms allowed), plus a floor of 2 when it says "leadership".
 */
export function audienceAllows(audience: string, identity: Identity | undefined): boolean {
  if (!identity) return false;
  const a = audience.toLowerCase().trim();
  const level = seniority(identity.authority);
  const floor =
    /\+|\band above\b|\bor above\b|\bor higher\b/.test(a) || /^(c-suite|c-level|executives?|vps?|directors?)$/.test(a)
      ? seniority(a.replace(/\+|\band above\b|\bor above\b|\bor higher\b/g, ''))
      : 0;
  if (floor > 0) return level >= floor || identity.permissions.some((p) => p.toLowerCase() === a);
  const words = (a.match(/[a-z0-9]+/g) ?? []).filter((w) => !GENERIC.has(w));
  const grants = [identity.department, ...identity.permissions].map((g) => g.toLowerCase());
  const inGroup = words.length > 0 && words.some((w) => grants.some((g) => tokens(g).includes(w) || initials(g) === w));
  if (!inGroup) return identity.permissions.some((p) => p.toLowerCase() === a);
  return /\bleadership\b/.test(a) ? level >= 2 : true;
}

/** The audience a text's sensitivity label restricts it to, if it has one. */
export function restrictionOf(text: string): string | undefined {
  return RESTRICTION.exec(text)?.[1];
}

/** The scope a text's "[SCOPE: name]" label confines it to, if it has one. */
export function scopeLabelOf(text: string): string | undefined {
  return SCOPE_LABEL.exec(text)?.[1];
}

const LEADING_LABELS = /^(?:\s*\[[^\]]*\])+\s*/;

/** The text without the bracketed labels that open it ("[VP] Vince: ..." gives "Vince: ..."):
 * what a person repeating it would say. */
export function withoutLabels(text: string): string {
  return text.replace(LEADING_LABELS, '');
}
