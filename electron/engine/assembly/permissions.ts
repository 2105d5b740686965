// Permission mirroring in assembly: text carrying a sensitivity label ("[CONFIDENTIAL — restricted
// to HR]") is withheld when the partition identity is outside its audience. The check runs in the
// shared read stage, as a SQL function inside the queries that hand facts to strategies, so no
// strategy — whatever its order — ever receives a fact its reader may not see; complete
// provenance lists such facts as excluded for `permission`.
import type { Identity } from '../../../shared/domain';
import type { Sqlite } from '../db/open';
import { audienceAllows, restrictionOf } from './labels';

const FUNCTION = 'statelens_withheld';

/** How a reader travels into SQL: its identity as JSON, or '' when the partition has none. */
export function readerKey(identity: Identity | undefined): string {
  return identity ? JSON.stringify(identity) : '';
}

let lastKey: string | null = null;
let lastIdentity: Identity | undefined;

function identityOf(key: string): Identity | undefined {
  if (key !== lastKey) {
    lastKey = key;
    lastIdentity = key === '' ? undefined : (JSON.parse(key) as Identity);
  }
  return lastIdentity;
}

/** The audience that keeps `text` from `identity`, or null when the identity may read it. */
export function withheldAudience(text: string, identity: Identity | undefined): string | null {
  const audience = restrictionOf(text);
  return audience === undefined || audienceAllows(audience, identity) ? null : audience;
}

const registered = new WeakSet<Sqlite>();

/** Registers the SQL function once per connection (called before any query that uses it). */
export function ensurePermissionFunction(db: Sqlite): void {
  if (registered.has(db)) return;
  db.function(FUNCTION, { deterministic: true }, (value: unknown, reader: unknown) =>
    typeof value === 'string' ? withheldAudience(value, identityOf(typeof reader === 'string' ? reader : '')) : null,
  );
  registered.add(db);
}

/** SQL: the audience withholding the text in `column` from @reader, or NULL. Only text holding a
 * "[" can be labelled, so the function runs on that alone. */
export function withheldSql(column: string): string {
  return `(CASE WHEN instr(${column}, '[') = 0 THEN NULL ELSE ${FUNCTION}(${column}, @reader) END)`;
}

/** SQL: fact `f` may be shown to @reader. */
export const READABLE_SQL = `${withheldSql('f.value')} IS NULL`;
