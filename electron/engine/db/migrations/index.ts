// The ordered migration registry: one file per step, versions contiguous from 1.
// The highest version here is the schema this build writes, recorded in `user_version`.
import { migration001 } from './001_initial';
import { migration002 } from './002_query_indexes';
import { migration003 } from './003_environment_history';
import { migration004 } from './004_identity_session';
import type Database from 'better-sqlite3';
import { migration005 } from './005_fact_entities';
import { migration006 } from './006_identity_per_session';
import { migration007 } from './007_archived_facts';
import type { Migration } from './types';

export const MIGRATIONS: readonly Migration[] = [migration001, migration002, migration003, migration004, migration005, migration006, migration007];
export const SCHEMA_VERSION = MIGRATIONS.length;
export type { Migration };

/** Runs one step's SQL or function; the caller holds the transaction and records the version. */
export function runMigration(db: Database.Database, migration: Migration): void {
  if (typeof migration.up === 'string') db.exec(migration.up);
  else migration.up(db);
}
