-- Distributing a Statelens store across a Citus cluster, sharded by org: every table scoped by org
-- is distributed on org_id, all co-located with partitions, so an org's rows, and every key and
-- foreign key between them, live on one node; the few tables not scoped by org are reference
-- tables, copied to every node.
--
-- Run once on the coordinator with psql, as a superuser or an administrator of the store, after
-- `statelens init --db URL` and the server setup (roles and row-level security), and before
-- agents write:
--   psql "$URL" -v ON_ERROR_STOP=1 -f distribute.sql
-- For a store in another schema, change the search_path line below.
--
-- Every table of the schema must be named here, either as distributed or as reference (a test
-- checks this and the rules below against the live schema): a table added by a migration must
-- be added here too. Citus requires of a distributed table that every primary key, unique
-- constraint and foreign key between distributed tables includes the distribution column; a
-- reference table may not refer to a distributed one; a referenced table is distributed first.
--
-- Before running it, check on your Citus version:
-- - the triggers that fill in a row's org from its partition (statelens_fill_org) read
--   partitions by id; on Citus they need `SET citus.enable_unsafe_triggers = on` and a writer
--   that names the org on every row (the lookup then never leaves the org's node);
-- - row-level security policies and the statelens_search text search configuration reach the
--   workers: Citus propagates both since its 11 releases (row-level security on distributed
--   tables was an enterprise feature before 11.0); on an older one, create them on the shards.

SET search_path TO statelens;

BEGIN;

-- Not scoped by org: the schema version, database-wide settings, and who may act for which org
-- (read by every policy on every node).
SELECT create_reference_table('statelens_schema_version');
SELECT create_reference_table('statelens_meta');
SELECT create_reference_table('statelens_org_members');

-- Scoped by org, partitions first: the others refer to it and are co-located with it.
SELECT create_distributed_table('partitions', 'org_id');
-- One identity per (org_id, partition_id, session): its key leads with the distribution column.
SELECT create_distributed_table('identities', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('facts', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('fact_edges', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('working_items', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('environment_signals', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('org_documents', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('agent_states', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('context_documents', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('saved_queries', 'org_id', colocate_with => 'partitions');
SELECT create_distributed_table('audit_log', 'org_id', colocate_with => 'partitions');
-- The server setup's write locks: rows of one org, locked by that org's writers only.
SELECT create_distributed_table('statelens_write_locks', 'org_id', colocate_with => 'partitions');

COMMIT;
