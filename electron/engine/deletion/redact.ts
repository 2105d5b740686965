// The write path records how a `supersedes` reference was resolved ("superseding <ref>
// (resolved by key|label)") in the superseded fact's reason and in the audit log. When the fact
// whose key or label that was is deleted, and no surviving fact of the partition holds that text,
// the reference is redacted from the audit log so the deleted text does not outlive the fact;
// so is a review cause's quote of that key ("depends on "<key>", …"), the rest of the cause kept.
import type { PartitionContext } from '../context';
import { stmt } from '../db/statements';
import type { DeletedText } from './scrub';

const REF = /superseding ([\s\S]+?) \(resolved by (label|key)\)/g;
export const REDACTED_REF = '[a deleted fact]';

function redact(text: string, gone: ReadonlySet<string>): string {
  return text.replace(REF, (whole: string, ref: string, via: string) => (gone.has(ref) ? `superseding ${REDACTED_REF} (resolved by ${via})` : whole));
}

/** Deleted keys and labels no surviving fact of the partition holds, found in one statement. */
const GONE_REFS = `SELECT j.value FROM json_each(?) j
  WHERE NOT EXISTS (SELECT 1 FROM facts f WHERE f.partition_id = ? AND f.key = j.value)
    AND NOT EXISTS (SELECT 1 FROM facts f WHERE f.partition_id = ? AND f.label = j.value)`;

export function redactDeletedRefs(ctx: PartitionContext, texts: readonly DeletedText[]): number {
  const { db, partitionId } = ctx;
  const deleted = new Set<string>();
  for (const t of texts) {
    deleted.add(t.key);
    if (t.label) deleted.add(t.label);
  }
  if (deleted.size === 0) return 0;
  // Only a reference no surviving fact still holds is redacted, so when every deleted key and
  // label lives on, no reason needs reading at all (the common case of deleting old versions).
  const gone = new Set(
    stmt<[string, number, number], string>(db, GONE_REFS)
      .pluck()
      .all(JSON.stringify([...deleted]), partitionId, partitionId),
  );
  if (gone.size === 0) return 0;
  redactReviewCauses(ctx, gone);
  // No surviving fact's reason needs reading: a reason quoting <ref> sits on the fact the ref
  // resolved to, which holds that key or label itself; had it survived, the ref would not be
  // gone. (Reading every reason of a million-fact partition cost most of a second.)
  const entries = stmt<[number], { id: number; reason: string }>(
    db,
    "SELECT id, reason FROM audit_log WHERE partition_id = ? AND reason LIKE '%(resolved by %'",
  ).all(partitionId);
  let changed = 0;
  const setAudit = stmt(db, 'UPDATE audit_log SET reason = ? WHERE id = ?');
  for (const a of entries) {
    const next = redact(a.reason, gone);
    if (next !== a.reason) {
      setAudit.run(next, a.id);
      changed++;
    }
  }
  return changed;
}

/** Review causes quoting a key in `gone` ("<key>") keep their history with the quote replaced. */
function redactReviewCauses(ctx: PartitionContext, gone: ReadonlySet<string>): void {
  const setCause = stmt(ctx.db, 'UPDATE facts SET review_cause = ? WHERE id = ? AND partition_id = ?');
  for (const ref of gone) {
    const quoted = `"${ref}"`;
    const rows = stmt<[number, string], { id: string; review_cause: string }>(
      ctx.db,
      'SELECT id, review_cause FROM facts WHERE partition_id = ? AND needs_review = 1 AND instr(review_cause, ?) > 0',
    ).all(ctx.partitionId, quoted);
    for (const r of rows) setCause.run(r.review_cause.split(quoted).join(REDACTED_REF), r.id, ctx.partitionId);
  }
}
