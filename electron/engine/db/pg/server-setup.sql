-- Statelens server setup for the schema "statelens": the roles statelens_agent, statelens_reviewer and statelens_admin,
-- forced row-level security on every table scoped by org, and the membership table that binds
-- each role to the orgs it may act for. Generated from server-setup.ts (do not edit by hand).
-- Run once the schema is at version 5 (statelens init), as a superuser or a role with
-- CREATEROLE that owns the schema, and again after every migration; every statement is idempotent:
--   psql "$URL" -v ON_ERROR_STOP=1 -1 -f server-setup.sql
SELECT pg_advisory_xact_lock(1398033486);
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'statelens_agent') THEN
      CREATE ROLE "statelens_agent" NOLOGIN;
    END IF;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'statelens_reviewer') THEN
      CREATE ROLE "statelens_reviewer" NOLOGIN;
    END IF;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'statelens_admin') THEN
      CREATE ROLE "statelens_admin" NOLOGIN;
    END IF;
  EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
  END $$;
DO $$ BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AND NOT pg_has_role(current_user, 'statelens_admin', 'MEMBER') THEN
      EXECUTE format('GRANT %I TO %I', 'statelens_admin', current_user);
    END IF;
  END $$;
CREATE TABLE IF NOT EXISTS "statelens".statelens_org_members (
    org_id        text NOT NULL,
    role_name     text NOT NULL,
    -- NULL: every partition of the org; otherwise only these.
    partition_ids bigint[],
    PRIMARY KEY (org_id, role_name)
  );
CREATE TABLE IF NOT EXISTS "statelens".statelens_write_locks (
    org_id text NOT NULL,
    slot   integer NOT NULL,
    PRIMARY KEY (org_id, slot)
  );
CREATE OR REPLACE FUNCTION "statelens".statelens_session_org() RETURNS text
    LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT m.org_id FROM "statelens".statelens_org_members m
     WHERE m.org_id = current_setting('statelens.org', true) AND m.role_name = current_user::text
  $$;
CREATE OR REPLACE FUNCTION "statelens".statelens_session_partitions() RETURNS bigint[]
    LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN p.id IS NULL THEN m.partition_ids
                WHEN m.partition_ids IS NULL OR p.id = ANY (m.partition_ids) THEN ARRAY[p.id]
                ELSE '{}'::bigint[] END
      FROM "statelens".statelens_org_members m
     CROSS JOIN (SELECT nullif(current_setting('statelens.partition', true), '')::bigint AS id) p
     WHERE m.org_id = current_setting('statelens.org', true) AND m.role_name = current_user::text
  $$;
CREATE OR REPLACE FUNCTION "statelens".statelens_roles() RETURNS TABLE (agent text, reviewer text, admin text)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'statelens_agent', 'statelens_reviewer', 'statelens_admin' $$;
CREATE OR REPLACE FUNCTION "statelens".statelens_level_gate() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
  DECLARE tier text; kind text;
  BEGIN
    IF NEW.level IS NULL OR pg_has_role(current_user, 'statelens_admin', 'MEMBER') THEN RETURN NEW; END IF;
    SELECT coalesce(p.maturity, 'junior'), p.kind INTO tier, kind FROM "statelens".partitions p WHERE p.org_id = NEW.org_id AND p.id = NEW.partition_id;
    IF kind IS DISTINCT FROM 'capability' OR NOT (NEW.level = 'event' OR (NEW.level = 'heuristic' AND tier IN ('senior', 'master')) OR (NEW.level = 'strategy' AND tier = 'master')) THEN
      RAISE EXCEPTION 'A % agent may not write %-level memory', coalesce(tier, 'non-capability'), NEW.level USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN NEW;
  END $$;
DROP TRIGGER IF EXISTS statelens_level_gate ON "statelens".facts;
CREATE TRIGGER statelens_level_gate BEFORE INSERT OR UPDATE OF level, partition_id, org_id ON "statelens".facts FOR EACH ROW EXECUTE FUNCTION "statelens".statelens_level_gate();
CREATE OR REPLACE FUNCTION "statelens".statelens_audit_author() RETURNS trigger
  LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
  BEGIN
    IF pg_has_role(current_user, 'statelens_admin', 'MEMBER') THEN RETURN NEW; END IF;
    IF NOT ((pg_has_role(current_user, 'statelens_agent', 'MEMBER') AND NEW.action = ANY (ARRAY['supersede', 'flag_review']::text[]))
         OR (pg_has_role(current_user, 'statelens_reviewer', 'MEMBER') AND NEW.action = ANY (ARRAY['delete', 'dismiss_review', 'restore_review']::text[]))) THEN
      RAISE EXCEPTION 'Role % may not record the audit action %', current_user, NEW.action USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NEW.actor IS DISTINCT FROM current_user::text THEN
      NEW.details := (coalesce(NEW.details, '{}')::jsonb || jsonb_build_object('via', NEW.actor))::text;
      NEW.actor := current_user::text;
    END IF;
    RETURN NEW;
  END $$;
DROP TRIGGER IF EXISTS statelens_audit_author ON "statelens".audit_log;
CREATE TRIGGER statelens_audit_author BEFORE INSERT ON "statelens".audit_log FOR EACH ROW EXECUTE FUNCTION "statelens".statelens_audit_author();
CREATE OR REPLACE FUNCTION "statelens".statelens_delete_scope(p_partition bigint) RETURNS text
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
    SELECT CASE WHEN r.rolsuper OR pg_has_role(c.who, 'statelens_admin', 'MEMBER') THEN ''
      ELSE (SELECT m.org_id FROM "statelens".statelens_org_members m
             WHERE m.org_id = current_setting('statelens.org', true) AND m.role_name = c.who
               AND (m.partition_ids IS NULL OR p_partition = ANY (m.partition_ids))
               AND coalesce(nullif(current_setting('statelens.partition', true), '')::bigint = p_partition, true)) END
      FROM (SELECT CASE WHEN current_setting('role') = 'none' THEN session_user::text ELSE current_setting('role') END AS who) c
      JOIN pg_roles r ON r.rolname = c.who
  $$;
CREATE OR REPLACE FUNCTION "statelens".statelens_delete_facts(p_partition bigint, p_ids text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DECLARE org text := "statelens".statelens_delete_scope(p_partition); n bigint;
  BEGIN
    IF org IS NULL THEN RETURN 0; END IF;
    DELETE FROM "statelens".facts f WHERE f.partition_id = p_partition AND (org = '' OR f.org_id = org)
       AND f.id IN (SELECT json_array_elements_text(p_ids::json));
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
  END $$;
CREATE OR REPLACE FUNCTION "statelens".statelens_clear_session(p_table text, p_partition bigint, p_session text) RETURNS bigint
  LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
  DECLARE org text := "statelens".statelens_delete_scope(p_partition); n bigint;
  BEGIN
    IF NOT p_table = ANY (ARRAY['working_items', 'identities']::text[]) THEN
      RAISE EXCEPTION 'statelens_clear_session clears % only, not %', 'working_items, identities', p_table USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF org IS NULL THEN RETURN 0; END IF;
    EXECUTE format('DELETE FROM %I.%I t WHERE t.partition_id = $1 AND t.session_id = $2 AND ($3 = '''' OR t.org_id = $3)', 'statelens', p_table)
      USING p_partition, p_session, org;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
  END $$;
ALTER SCHEMA "statelens" OWNER TO "statelens_admin";
DO $$ DECLARE o record; BEGIN
    FOR o IN SELECT c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = 'statelens'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') LOOP
      EXECUTE format('ALTER TABLE %I.%I OWNER TO %I', 'statelens', o.relname, 'statelens_admin');
    END LOOP;
    FOR o IN SELECT p.oid::regprocedure AS fn FROM pg_proc p WHERE p.pronamespace = 'statelens'::regnamespace LOOP
      EXECUTE format('ALTER FUNCTION %s OWNER TO %I', o.fn, 'statelens_admin');
    END LOOP;
    FOR o IN SELECT t.cfgname FROM pg_ts_config t WHERE t.cfgnamespace = 'statelens'::regnamespace LOOP
      EXECUTE format('ALTER TEXT SEARCH CONFIGURATION %I.%I OWNER TO %I', 'statelens', o.cfgname, 'statelens_admin');
    END LOOP;
  END $$;
REVOKE ALL ON SCHEMA "statelens" FROM PUBLIC;
GRANT USAGE ON SCHEMA "statelens" TO "statelens_agent", "statelens_reviewer";
REVOKE ALL ON ALL TABLES IN SCHEMA "statelens" FROM PUBLIC, "statelens_agent", "statelens_reviewer";
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA "statelens" FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA "statelens" TO "statelens_agent", "statelens_reviewer";
REVOKE EXECUTE ON FUNCTION "statelens".statelens_delete_facts(bigint, text) FROM "statelens_agent";
GRANT SELECT ON "statelens".statelens_meta TO "statelens_agent", "statelens_reviewer";
GRANT SELECT ON "statelens".statelens_schema_version TO "statelens_agent", "statelens_reviewer";
GRANT SELECT ON "statelens".statelens_org_members TO "statelens_agent", "statelens_reviewer";
REVOKE ALL ON ALL SEQUENCES IN SCHEMA "statelens" FROM PUBLIC, "statelens_agent", "statelens_reviewer";
GRANT SELECT ON ALL SEQUENCES IN SCHEMA "statelens" TO "statelens_agent", "statelens_reviewer";
ALTER TABLE "statelens".statelens_org_members ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_own ON "statelens".statelens_org_members;
CREATE POLICY statelens_own ON "statelens".statelens_org_members FOR SELECT TO PUBLIC USING (role_name = current_user::text);
DROP POLICY IF EXISTS statelens_admin ON "statelens".statelens_org_members;
CREATE POLICY statelens_admin ON "statelens".statelens_org_members TO "statelens_admin" USING (true) WITH CHECK (true);
GRANT SELECT, INSERT, UPDATE (slot) ON "statelens".statelens_write_locks TO "statelens_agent";
GRANT SELECT, INSERT, UPDATE (slot) ON "statelens".statelens_write_locks TO "statelens_reviewer";
ALTER TABLE "statelens".statelens_write_locks ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".statelens_write_locks;
CREATE POLICY statelens_member ON "statelens".statelens_write_locks TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org())) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()));
DROP POLICY IF EXISTS statelens_admin ON "statelens".statelens_write_locks;
CREATE POLICY statelens_admin ON "statelens".statelens_write_locks TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".partitions TO "statelens_agent";
GRANT SELECT ON "statelens".partitions TO "statelens_reviewer";
ALTER TABLE "statelens".partitions ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".partitions;
CREATE POLICY statelens_member ON "statelens".partitions TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".partitions;
CREATE POLICY statelens_admin ON "statelens".partitions TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".facts TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".facts', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".facts'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT, UPDATE (needs_review, review_cause, review_cause_fact, superseded_by, supersedes, proposal_for, supersession_reason) ON "statelens".facts TO "statelens_reviewer";
ALTER TABLE "statelens".facts ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".facts;
CREATE POLICY statelens_member ON "statelens".facts TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".facts;
CREATE POLICY statelens_admin ON "statelens".facts TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".fact_edges TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".fact_edges', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".fact_edges'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".fact_edges TO "statelens_reviewer";
ALTER TABLE "statelens".fact_edges ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".fact_edges;
CREATE POLICY statelens_member ON "statelens".fact_edges TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".fact_edges;
CREATE POLICY statelens_admin ON "statelens".fact_edges TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".identities TO "statelens_agent";
GRANT SELECT ON "statelens".identities TO "statelens_reviewer";
ALTER TABLE "statelens".identities ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".identities;
CREATE POLICY statelens_member ON "statelens".identities TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".identities;
CREATE POLICY statelens_admin ON "statelens".identities TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".environment_signals TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".environment_signals', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".environment_signals'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".environment_signals TO "statelens_reviewer";
ALTER TABLE "statelens".environment_signals ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".environment_signals;
CREATE POLICY statelens_member ON "statelens".environment_signals TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".environment_signals;
CREATE POLICY statelens_admin ON "statelens".environment_signals TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".org_documents TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".org_documents', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".org_documents'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".org_documents TO "statelens_reviewer";
ALTER TABLE "statelens".org_documents ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".org_documents;
CREATE POLICY statelens_member ON "statelens".org_documents TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".org_documents;
CREATE POLICY statelens_admin ON "statelens".org_documents TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".agent_states TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".agent_states', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".agent_states'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".agent_states TO "statelens_reviewer";
ALTER TABLE "statelens".agent_states ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".agent_states;
CREATE POLICY statelens_member ON "statelens".agent_states TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".agent_states;
CREATE POLICY statelens_admin ON "statelens".agent_states TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".context_documents TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".context_documents', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".context_documents'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".context_documents TO "statelens_reviewer";
ALTER TABLE "statelens".context_documents ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".context_documents;
CREATE POLICY statelens_member ON "statelens".context_documents TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".context_documents;
CREATE POLICY statelens_admin ON "statelens".context_documents TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".saved_queries TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".saved_queries', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".saved_queries'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".saved_queries TO "statelens_reviewer";
ALTER TABLE "statelens".saved_queries ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".saved_queries;
CREATE POLICY statelens_member ON "statelens".saved_queries TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".saved_queries;
CREATE POLICY statelens_admin ON "statelens".saved_queries TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".working_items TO "statelens_agent";
  DO $$ BEGIN
          EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), '"statelens".working_items', '"statelens_agent"')
                     FROM pg_attribute a WHERE a.attrelid = '"statelens".working_items'::regclass AND a.attnum > 0 AND NOT a.attisdropped);
        END $$;
GRANT SELECT ON "statelens".working_items TO "statelens_reviewer";
ALTER TABLE "statelens".working_items ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".working_items;
CREATE POLICY statelens_member ON "statelens".working_items TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".working_items;
CREATE POLICY statelens_admin ON "statelens".working_items TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
GRANT SELECT, INSERT ON "statelens".audit_log TO "statelens_agent";
GRANT SELECT, INSERT, UPDATE (reason) ON "statelens".audit_log TO "statelens_reviewer";
ALTER TABLE "statelens".audit_log ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS statelens_member ON "statelens".audit_log;
CREATE POLICY statelens_member ON "statelens".audit_log TO PUBLIC USING (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[]))) WITH CHECK (org_id = (SELECT "statelens".statelens_session_org()) AND ((SELECT "statelens".statelens_session_partitions()) IS NULL OR partition_id = ANY ((SELECT "statelens".statelens_session_partitions())::bigint[])));
DROP POLICY IF EXISTS statelens_admin ON "statelens".audit_log;
CREATE POLICY statelens_admin ON "statelens".audit_log TO "statelens_admin"
  USING (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true))
  WITH CHECK (current_setting('statelens.all_orgs', true) = 'on' OR org_id = current_setting('statelens.org', true));
DROP POLICY IF EXISTS statelens_agent_tier ON "statelens".partitions;
CREATE POLICY statelens_agent_tier ON "statelens".partitions AS RESTRICTIVE FOR INSERT TO "statelens_agent" WITH CHECK (maturity IS NULL OR maturity = 'junior');
