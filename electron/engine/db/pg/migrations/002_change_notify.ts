// PostgreSQL migration 2: every statement that changes what the inspector shows announces, when
// its transaction commits, the partitions it touched on the schema's change channel (NOTIFY), so
// other processes' stores refresh without polling. Only partition ids travel: LISTEN is not
// subject to row-level security, so a notification must carry nothing a listener could not see.
import type { PgMigration } from './types';

/** Tables whose changes the inspector shows, with the column naming their partition. */
const ANNOUNCED: ReadonlyArray<readonly [table: string, partitionColumn: string]> = [
  ['partitions', 'id'],
  ['identities', 'partition_id'],
  ['facts', 'partition_id'],
  ['fact_edges', 'partition_id'],
  ['working_items', 'partition_id'],
  ['environment_signals', 'partition_id'],
  ['org_documents', 'partition_id'],
  ['agent_states', 'partition_id'],
  ['context_documents', 'partition_id'],
  ['saved_queries', 'partition_id'],
  ['audit_log', 'partition_id'],
];

/** More partitions than this in one statement are announced as "*" (a payload is at most 8000 bytes). */
export const MAX_ANNOUNCED_PARTITIONS = 400;

const triggers = ANNOUNCED.flatMap(([table, column]) =>
  (['INSERT', 'UPDATE', 'DELETE'] as const).map(
    (event) =>
      `CREATE TRIGGER ${table}_announce_${event.toLowerCase()} AFTER ${event} ON ${table}
       REFERENCING ${event === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS changed_rows
       FOR EACH STATEMENT EXECUTE FUNCTION statelens_announce_change('${column}');`,
  ),
);

export const pgMigration002: PgMigration = {
  version: 2,
  name: 'change notifications',
  up: `
    CREATE FUNCTION statelens_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n integer;
      ids text;
    BEGIN
      EXECUTE format('SELECT count(DISTINCT %1$I), string_agg(DISTINCT %1$I::text, '','') FROM changed_rows WHERE %1$I IS NOT NULL', TG_ARGV[0])
        INTO n, ids;
      IF n > 0 THEN
        PERFORM pg_notify('statelens_' || md5(TG_TABLE_SCHEMA), CASE WHEN n > ${MAX_ANNOUNCED_PARTITIONS} THEN '*' ELSE ids END);
      END IF;
      RETURN NULL;
    END $$;
    ${triggers.join('\n    ')}
  `,
};
