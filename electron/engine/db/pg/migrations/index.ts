// The ordered PostgreSQL migration registry, versions contiguous from 1. Its own numbering:
// version 1 is the schema of SQLite version 5; the highest version is what this build writes.
import { pgMigration001 } from './001_initial';
import { pgMigration002 } from './002_search';
import { pgMigration003 } from './003_change_notify';
import { pgMigration004 } from './004_identity_per_session';
import { pgMigration005 } from './005_archived_facts';
import type { PgMigration } from './types';

export type { PgMigration } from './types';

export const PG_MIGRATIONS: readonly PgMigration[] = [pgMigration001, pgMigration002, pgMigration003, pgMigration004, pgMigration005];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS[PG_MIGRATIONS.length - 1]?.version ?? 0;

/** The SQLite schema version whose tables and columns the latest PostgreSQL version has: what a
 * PostgreSQL store reports as its user_version (snapshot headers carry it). */
export const PG_SQLITE_SCHEMA_VERSION = 7;
