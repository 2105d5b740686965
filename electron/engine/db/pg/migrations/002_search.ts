// PostgreSQL migration 2: full-text search cut into the tokens FTS5 sees. PostgreSQL's own
// parser keeps e-mails, hyphenated words, decimals and paths whole (and adds their parts), where
// FTS5's unicode61 splits at every separator; the document function first turns every separator
// (the shared splitter's class) into a space, so both stores match the same words. Key and value
// are weighted apart (A and D) so a phrase never spans them, as it never spans FTS5 columns.
import { SEPARATOR_CLASS_PG } from '../../search-tokens';
import type { PgMigration } from './types';

export const pgMigration002: PgMigration = {
  version: 2,
  name: 'full-text search tokenised like FTS5',
  up: `
    -- Words mixing letters and digits are unaccented too, as FTS5 does.
    DO $$
    DECLARE ns text;
    BEGIN
      SELECT n.nspname INTO ns FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'unaccent';
      EXECUTE format('ALTER TEXT SEARCH CONFIGURATION statelens_search ALTER MAPPING FOR numword, numhword WITH %I.unaccent, simple', ns);
    END $$;

    -- A standard-SQL body binds its names when created: the index never depends on search_path.
    CREATE FUNCTION statelens_fts_doc(key text, value text) RETURNS tsvector
      LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      RETURN setweight(to_tsvector('statelens_search'::regconfig, regexp_replace(key, '${SEPARATOR_CLASS_PG}', ' ', 'g')), 'A')
        || to_tsvector('statelens_search'::regconfig, regexp_replace(value, '${SEPARATOR_CLASS_PG}', ' ', 'g'));

    DROP INDEX facts_search;
    CREATE INDEX facts_search ON facts USING gin (org_id, partition_id, statelens_fts_doc(key, value));
  `,
};
