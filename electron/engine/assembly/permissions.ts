// Permission mirroring in assembly: text carrying a sensitivity label ("[CONFIDENTIAL — restricted
// to HR]") is withheld when the identity of the session the context is for is outside its
// audience (a session that set none has none: every restricted text is withheld). The check runs in the
// shared read stage, inside the queries that hand facts to strategies, so no strategy — whatever
// its order — ever receives a fact its reader may not see; complete provenance lists such facts
// as excluded for `permission`. SQLite calls the check as a SQL function; PostgreSQL cannot run
// the engine's JavaScript, so there the same check judges the partition's labelled texts first
// and the query looks each text up in the result.
import type { Identity } from '../../../shared/domain';
import type { PartitionContext } from '../context';
import { dialectOf, type Dialect } from '../db/dialect';
import { sqliteOf, type EngineDb } from '../db/connection';
import { stmt } from '../db/statements';
import { audienceAllows, restrictionOf } from './labels';

const FUNCTION = 'statelens_withheld';

/** How a reader travels into SQL: its identity as JSON, or '' when its session has none. */
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

const registered = new WeakSet<EngineDb>();

/** Registers the SQL function once per SQLite connection (called before any query that uses it). */
export function ensurePermissionFunction(db: EngineDb): void {
  if (registered.has(db) || dialectOf(db).name === 'postgres') return;
  sqliteOf(db, 'An SQL function').function(FUNCTION, { deterministic: true }, (value: unknown, reader: unknown) =>
    typeof value === 'string' ? withheldAudience(value, identityOf(typeof reader === 'string' ? reader : '')) : null,
  );
  registered.add(db);
}

/** SQL: the audience withholding the text in `column` from @reader, or NULL. Only text holding a
 * "[" can be labelled, so the check runs on that alone. On PostgreSQL @reader is readerBinding's
 * map from withheld text to audience. */
export function withheldSql(column: string, dialect: Dialect['name'] = 'sqlite'): string {
  const check = dialect === 'postgres' ? `jsonb_extract_path_text(CAST(@reader AS jsonb), ${column})` : `${FUNCTION}(${column}, @reader)`;
  return `(CASE WHEN instr(${column}, '[') = 0 THEN NULL ELSE ${check} END)`;
}

/** SQL: fact `f` may be shown to @reader. */
export const readableSql = (dialect: Dialect['name']): string => `${withheldSql('f.value', dialect)} IS NULL`;

const bindings = new WeakMap<object, string>();

/**
 * The value of @reader for `reader` (a readerKey) in the partition: the key itself on SQLite; on
 * PostgreSQL, every labelled text of the partition's facts and working items that the reader may
 * not see, with its audience, as a JSON object (judged once per `view`, which lives for one
 * assembly).
 */
export function readerBinding(ctx: PartitionContext, view: { readonly reader: string }): string {
  if (dialectOf(ctx.db).name !== 'postgres') return view.reader;
  const cached = bindings.get(view);
  if (cached !== undefined) return cached;
  const identity = identityOf(view.reader);
  const texts = stmt<[number, number], string>(
    ctx.db,
    "SELECT value FROM facts WHERE partition_id = ? AND instr(value, '[') > 0 UNION SELECT value FROM working_items WHERE partition_id = ? AND instr(value, '[') > 0",
  )
    .pluck()
    .all(ctx.partitionId, ctx.partitionId);
  const withheld: Record<string, string> = {};
  for (const text of texts) {
    const audience = withheldAudience(text, identity);
    if (audience !== null) withheld[text] = audience;
  }
  const binding = JSON.stringify(withheld);
  bindings.set(view, binding);
  return binding;
}
