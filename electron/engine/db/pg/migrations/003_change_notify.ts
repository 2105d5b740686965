// PostgreSQL migration 3: every statement that changes what the inspector shows announces, when
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
       FOR EACH STATEMENT EXECUTE FUNCTION ${column === 'id' ? 'statelens_announce_partition' : 'statelens_announce_change'}();`,
  ),
);

export const pgMigration003: PgMigration = {
  version: 3,
  name: 'change notifications',
  up: `
    -- Static SQL (a plan cached per table), so one function per name of the partition column.
    CREATE FUNCTION statelens_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n integer;
      ids text;
    BEGIN
      SELECT count(DISTINCT partition_id), string_agg(DISTINCT partition_id::text, ',') INTO n, ids FROM changed_rows WHERE partition_id IS NOT NULL;
      IF n > 0 THEN
        PERFORM pg_notify('statelens_' || md5(TG_TABLE_SCHEMA), CASE WHEN n > ${MAX_ANNOUNCED_PARTITIONS} THEN '*' ELSE ids END);
      END IF;
      RETURN NULL;
    END $$;
    CREATE FUNCTION statelens_announce_partition() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      n integer;
      ids text;
    BEGIN
      SELECT count(DISTINCT id), string_agg(DISTINCT id::text, ',') INTO n, ids FROM changed_rows WHERE id IS NOT NULL;
      IF n > 0 THEN
        PERFORM pg_notify('statelens_' || md5(TG_TABLE_SCHEMA), CASE WHEN n > ${MAX_ANNOUNCED_PARTITIONS} THEN '*' ELSE ids END);
      END IF;
      RETURN NULL;
    END $$;
    ${triggers.join('\n    ')}
  `,
};
