// Server setup for a shared PostgreSQL store: three group roles (agents, reviewers,
// administrators), row-level security binding every session to an org it is a member of, and the
// per-transaction settings the store uses to say which org (and partition) a transaction is for.
// Applied by an administrator after the migrations; idempotent, so it is re-run after each one.
import { StatelensError } from '../../../../shared/errors';
import { PG_SCHEMA_VERSION } from './migrations';
import { checkPgSchema, DEFAULT_PG_SCHEMA, inspectPgSchema, MIGRATION_LOCK, requirePgSchemaName, VERSION_TABLE } from './schema';
import { PG_ALL_ORGS_SETTING, PG_ORG_SETTING, PG_PARTITION_SETTING } from './session-settings';
import { LOCK_WAIT_MS } from './database';
import { WRITE_LOCKS_TABLE } from './row-locks';
import { quoteIdent, type SyncPg } from './sync-client';

/** Which role may act for which org: one row per (org, role), kept by administrators. */
export const MEMBERS_TABLE = 'statelens_org_members';

export interface PgRoles {
  /** Write memory (insert and update), never delete it. */
  readonly agent: string;
  /** Read and delete (with impact preview and audit); no memory writes. */
  readonly reviewer: string;
  /** Owns the schema: DDL, migrations, maturity changes, membership. */
  readonly admin: string;
}

/** The group role names for a store: `<prefix>_agent`, `<prefix>_reviewer`, `<prefix>_admin` (prefix: the schema name). */
export function pgRoleNames(prefix: string): PgRoles {
  return { agent: `${prefix}_agent`, reviewer: `${prefix}_reviewer`, admin: `${prefix}_admin` };
}

/** A table privilege, or UPDATE of named columns only. Never table-wide UPDATE or DELETE:
 * either lets a role LOCK TABLE in every mode, holding every org's writers. */
type Privilege = 'SELECT' | 'INSERT' | `UPDATE (${string})`;

/** UPDATE granted column by column on every column the table has when setup runs: the same
 * writes as a table-wide UPDATE, without its licence to LOCK TABLE in modes that stop every
 * org's writers (PostgreSQL lets only table-wide UPDATE, DELETE or TRUNCATE do that). */
export const UPDATE_EVERY_COLUMN = 'UPDATE (every column)';

interface OrgTable {
  /** The column naming the partition a row belongs to. */
  readonly partitionColumn: string;
  readonly agent: readonly Privilege[];
  readonly reviewer: readonly Privilege[];
}

const MEMORY: Pick<OrgTable, 'agent' | 'reviewer'> = { agent: ['SELECT', 'INSERT', UPDATE_EVERY_COLUMN], reviewer: ['SELECT'] };

/**
 * Every table scoped by org, and what each role may do with it. A table the migrations add must be
 * named here (setup refuses a schema with an unnamed one) so no table is left without a policy.
 * Nobody but administrators deletes rows directly: deletes go through PG_DELETE_FUNCTIONS. Reviewers
 * update facts only as a deletion does (relinking chains, flagging dependents) and audit reasons
 * only to redact deleted text quoted in them.
 */
export const PG_ORG_TABLES: Readonly<Record<string, OrgTable>> = {
  // Agents create partitions but never change one: its maturity (tier) is an administrator's.
  partitions: { partitionColumn: 'id', agent: ['SELECT', 'INSERT'], reviewer: ['SELECT'] },
  // The columns a deletion writes (relinking chains, flagging dependents) and a review writes
  // (dismissing a flag, undoing the dismissal): a reviewer cannot change what memory says.
  facts: {
    partitionColumn: 'partition_id',
    agent: MEMORY.agent,
    reviewer: ['SELECT', 'UPDATE (needs_review, review_cause, review_cause_fact, superseded_by, supersedes, proposal_for, supersession_reason)'],
  },
  fact_edges: { partitionColumn: 'partition_id', ...MEMORY },
  // One row per (partition, session): an agent inserts its session's identity at the session's
  // start; ending the session removes it through the session-clearing function; nobody but an
  // administrator updates one, so a session's identity stays as set for its whole life.
  identities: { partitionColumn: 'partition_id', agent: ['SELECT', 'INSERT'], reviewer: ['SELECT'] },
  environment_signals: { partitionColumn: 'partition_id', ...MEMORY },
  org_documents: { partitionColumn: 'partition_id', ...MEMORY },
  agent_states: { partitionColumn: 'partition_id', ...MEMORY },
  context_documents: { partitionColumn: 'partition_id', ...MEMORY },
  saved_queries: { partitionColumn: 'partition_id', ...MEMORY },
  working_items: { partitionColumn: 'partition_id', ...MEMORY },
  // The log is append-only for everyone but administrators.
  audit_log: { partitionColumn: 'partition_id', agent: ['SELECT', 'INSERT'], reviewer: ['SELECT', 'INSERT', 'UPDATE (reason)'] },
};

/** A deleting function of the setup: its name and argument types, what it deletes, who may call it. */
export interface PgDeleteFunction {
  readonly signature: string;
  readonly deletes: string;
  readonly agent: boolean;
  readonly reviewer: boolean;
}

/**
 * The deletes agents and reviewers make, as functions that run with the schema owner's rights
 * (table-wide DELETE would also let a role LOCK TABLE in every mode). Each deletes only rows of
 * the org (and partitions) the caller's membership covers, as the row policies would. Deleting a
 * fact cascades to the rows that name it. Agents delete only session scratch (the working set and
 * the session's identity, cleared when the session ends).
 */
export const PG_DELETE_FUNCTIONS = {
  facts: { signature: 'statelens_delete_facts(bigint, text)', deletes: 'facts of a partition by id', agent: false, reviewer: true },
  session: {
    signature: 'statelens_clear_session(text, bigint, text)',
    deletes: "a session's working_items or identities",
    agent: true,
    reviewer: true,
  },
} as const satisfies Record<string, PgDeleteFunction>;

/** The tables statelens_clear_session clears. */
export const PG_SESSION_TABLES = ['working_items', 'identities'] as const;

/**
 * The audit actions each role may append (its own name as the actor, whatever it claims; the
 * claimed name is kept in the entry's details as `via`). Administrators append any action.
 */
export const PG_AUDIT_ACTIONS: Readonly<Record<'agent' | 'reviewer', readonly string[]>> = {
  // A supersession by a write; a fact flagged for review by a turn that changes it.
  agent: ['supersede', 'flag_review'],
  reviewer: ['delete', 'dismiss_review', 'restore_review'],
};

/** Tables not scoped by org: readable by every role (the membership table: its own rows), written by administrators only. */
export const PG_SHARED_TABLES: readonly string[] = ['statelens_meta', VERSION_TABLE, MEMBERS_TABLE];

/** The write-lock rows (see row-locks): each writer makes and locks its org's rows. Locking a row
 * (FOR UPDATE) needs UPDATE of one column; UPDATE of a column, unlike of the table, does not let
 * a role LOCK TABLE in a mode that would hold every org's writers. */
export const PG_WRITE_LOCK_GRANTS: readonly Privilege[] = ['SELECT', 'INSERT', 'UPDATE (slot)'];

export interface PgServerSetupOptions {
  readonly schema?: string;
  /** Prefix of the three role names (default: the schema name). */
  readonly rolePrefix?: string;
}

export interface PgServerSetupResult {
  readonly schema: string;
  readonly roles: PgRoles;
  /** The org-scoped tables now under row-level security. */
  readonly tables: readonly string[];
}

const lit = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** The setup script for a schema (every statement idempotent). */
export function pgServerSetupSql(schema: string, roles: PgRoles): string {
  const s = quoteIdent(schema);
  const r = { agent: quoteIdent(roles.agent), reviewer: quoteIdent(roles.reviewer), admin: quoteIdent(roles.admin) };
  const members = `${s}.${MEMBERS_TABLE}`;
  const locks = `${s}.${WRITE_LOCKS_TABLE}`;
  const sessionOrg = `(SELECT ${s}.statelens_session_org())`;
  const sessionPartitions = `(SELECT ${s}.statelens_session_partitions())`;
  const grants = (privileges: readonly Privilege[], table: string, role: string): string => {
    const plain = privileges.filter((p) => p !== UPDATE_EVERY_COLUMN);
    const out = plain.length ? [`GRANT ${plain.join(', ')} ON ${s}.${table} TO ${role};`] : [];
    if (privileges.includes(UPDATE_EVERY_COLUMN)) {
      out.push(`DO $$ BEGIN
        EXECUTE (SELECT format('GRANT UPDATE (%s) ON %s TO %s', string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum), ${lit(`${s}.${table}`)}, ${lit(role)})
                   FROM pg_attribute a WHERE a.attrelid = ${lit(`${s}.${table}`)}::regclass AND a.attnum > 0 AND NOT a.attisdropped);
      END $$;`);
    }
    return out.join('\n');
  };
  const out: string[] = [];

  // Group roles; login roles are made members of them by the deployment. A role created by a
  // concurrent setup on another database of the cluster is as good as ours.
  for (const role of [roles.agent, roles.reviewer, roles.admin]) {
    out.push(`DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = ${lit(role)}) THEN
        CREATE ROLE ${quoteIdent(role)} NOLOGIN;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$;`);
  }
  // Whoever runs setup becomes an administrator (a superuser needs no membership): ownership can
  // only be handed to a role one belongs to.
  out.push(`DO $$ BEGIN
    IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AND NOT pg_has_role(current_user, ${lit(roles.admin)}, 'MEMBER') THEN
      EXECUTE format('GRANT %I TO %I', ${lit(roles.admin)}, current_user);
    END IF;
  END $$;`);

  out.push(`CREATE TABLE IF NOT EXISTS ${members} (
      org_id        text NOT NULL,
      role_name     text NOT NULL,
      -- NULL: every partition of the org; otherwise only these.
      partition_ids bigint[],
      PRIMARY KEY (org_id, role_name)
    );`);

  out.push(`CREATE TABLE IF NOT EXISTS ${locks} (
      org_id text NOT NULL,
      slot   integer NOT NULL,
      PRIMARY KEY (org_id, slot)
    );`);

  // The session's org: the one it asked for, if the role it runs as is a member. Invoker's rights
  // (current_user is the caller's), names qualified and search_path pinned so a caller cannot
  // substitute a membership table of its own.
  out.push(`CREATE OR REPLACE FUNCTION ${s}.statelens_session_org() RETURNS text
      LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
      SELECT m.org_id FROM ${members} m
       WHERE m.org_id = current_setting(${lit(PG_ORG_SETTING)}, true) AND m.role_name = current_user::text
    $$;`);
  // The partitions the session may see: NULL for all of its org's, else a list (empty when it asked
  // for one it may not see).
  out.push(`CREATE OR REPLACE FUNCTION ${s}.statelens_session_partitions() RETURNS bigint[]
      LANGUAGE sql STABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
      SELECT CASE WHEN p.id IS NULL THEN m.partition_ids
                  WHEN m.partition_ids IS NULL OR p.id = ANY (m.partition_ids) THEN ARRAY[p.id]
                  ELSE '{}'::bigint[] END
        FROM ${members} m
       CROSS JOIN (SELECT nullif(current_setting(${lit(PG_PARTITION_SETTING)}, true), '')::bigint AS id) p
       WHERE m.org_id = current_setting(${lit(PG_ORG_SETTING)}, true) AND m.role_name = current_user::text
    $$;`);

  out.push(...enforcementSql(schema, roles), ...deleteFunctionsSql(schema, roles));

  // Administrators own everything in the schema (DDL, migrations); nobody else has anything by default.
  out.push(`ALTER SCHEMA ${s} OWNER TO ${r.admin};`);
  out.push(`DO $$ DECLARE o record; BEGIN
    FOR o IN SELECT c.relname, c.relkind FROM pg_class c WHERE c.relnamespace = ${lit(schema)}::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') LOOP
      EXECUTE format('ALTER TABLE %I.%I OWNER TO %I', ${lit(schema)}, o.relname, ${lit(roles.admin)});
    END LOOP;
    FOR o IN SELECT p.oid::regprocedure AS fn FROM pg_proc p WHERE p.pronamespace = ${lit(schema)}::regnamespace LOOP
      EXECUTE format('ALTER FUNCTION %s OWNER TO %I', o.fn, ${lit(roles.admin)});
    END LOOP;
    FOR o IN SELECT t.cfgname FROM pg_ts_config t WHERE t.cfgnamespace = ${lit(schema)}::regnamespace LOOP
      EXECUTE format('ALTER TEXT SEARCH CONFIGURATION %I.%I OWNER TO %I', ${lit(schema)}, o.cfgname, ${lit(roles.admin)});
    END LOOP;
  END $$;`);
  out.push(`REVOKE ALL ON SCHEMA ${s} FROM PUBLIC;`);
  out.push(`GRANT USAGE ON SCHEMA ${s} TO ${r.agent}, ${r.reviewer};`);
  out.push(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM PUBLIC, ${r.agent}, ${r.reviewer};`);
  out.push(`REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${s} FROM PUBLIC;`);
  out.push(`GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA ${s} TO ${r.agent}, ${r.reviewer};`);
  for (const fn of Object.values(PG_DELETE_FUNCTIONS)) {
    const denied = (['agent', 'reviewer'] as const).filter((g) => !fn[g]).map((g) => r[g]);
    if (denied.length) out.push(`REVOKE EXECUTE ON FUNCTION ${s}.${fn.signature} FROM ${denied.join(', ')};`);
  }
  for (const t of PG_SHARED_TABLES) out.push(`GRANT SELECT ON ${s}.${t} TO ${r.agent}, ${r.reviewer};`);
  // Reading the identity an insert drew (lastval) needs SELECT on its sequence; nothing more.
  out.push(`REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM PUBLIC, ${r.agent}, ${r.reviewer};`);
  out.push(`GRANT SELECT ON ALL SEQUENCES IN SCHEMA ${s} TO ${r.agent}, ${r.reviewer};`);

  // Membership rows are private: each role sees its own, administrators all of them.
  out.push(`ALTER TABLE ${members} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;`);
  out.push(`DROP POLICY IF EXISTS statelens_own ON ${members};`);
  out.push(`CREATE POLICY statelens_own ON ${members} FOR SELECT TO PUBLIC USING (role_name = current_user::text);`);
  out.push(`DROP POLICY IF EXISTS statelens_admin ON ${members};`);
  out.push(`CREATE POLICY statelens_admin ON ${members} TO ${r.admin} USING (true) WITH CHECK (true);`);

  // Lock rows by org only (a session narrowed to a partition still takes its org's store lock).
  out.push(grants(PG_WRITE_LOCK_GRANTS, WRITE_LOCKS_TABLE, r.agent), grants(PG_WRITE_LOCK_GRANTS, WRITE_LOCKS_TABLE, r.reviewer));
  out.push(`ALTER TABLE ${locks} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;`);
  out.push(`DROP POLICY IF EXISTS statelens_member ON ${locks};`);
  out.push(`CREATE POLICY statelens_member ON ${locks} TO PUBLIC USING (org_id = ${sessionOrg}) WITH CHECK (org_id = ${sessionOrg});`);
  out.push(`DROP POLICY IF EXISTS statelens_admin ON ${locks};`);
  out.push(
    `CREATE POLICY statelens_admin ON ${locks} TO ${r.admin}
      USING (current_setting(${lit(PG_ALL_ORGS_SETTING)}, true) = 'on' OR org_id = current_setting(${lit(PG_ORG_SETTING)}, true))
      WITH CHECK (current_setting(${lit(PG_ALL_ORGS_SETTING)}, true) = 'on' OR org_id = current_setting(${lit(PG_ORG_SETTING)}, true));`,
  );

  for (const [table, spec] of Object.entries(PG_ORG_TABLES)) {
    const t = `${s}.${table}`;
    const partition = ` AND (${sessionPartitions} IS NULL OR ${spec.partitionColumn} = ANY (${sessionPartitions}::bigint[]))`;
    out.push(grants(spec.agent, table, r.agent), grants(spec.reviewer, table, r.reviewer));
    // FORCE: the owner (the administrators) is bound by the policies too, and lifts them only on purpose.
    out.push(`ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;`);
    out.push(`DROP POLICY IF EXISTS statelens_member ON ${t};`);
    out.push(`CREATE POLICY statelens_member ON ${t} TO PUBLIC USING (org_id = ${sessionOrg}${partition}) WITH CHECK (org_id = ${sessionOrg}${partition});`);
    out.push(`DROP POLICY IF EXISTS statelens_admin ON ${t};`);
    out.push(
      `CREATE POLICY statelens_admin ON ${t} TO ${r.admin}
        USING (current_setting(${lit(PG_ALL_ORGS_SETTING)}, true) = 'on' OR org_id = current_setting(${lit(PG_ORG_SETTING)}, true))
        WITH CHECK (current_setting(${lit(PG_ALL_ORGS_SETTING)}, true) = 'on' OR org_id = current_setting(${lit(PG_ORG_SETTING)}, true));`,
    );
  }
  // An agent's new partition starts without a tier or junior: a writer never chooses its own.
  out.push(`DROP POLICY IF EXISTS statelens_agent_tier ON ${s}.partitions;`);
  out.push(
    `CREATE POLICY statelens_agent_tier ON ${s}.partitions AS RESTRICTIVE FOR INSERT TO ${r.agent} WITH CHECK (maturity IS NULL OR maturity = 'junior');`,
  );
  return out.filter(Boolean).map(tidy).join('\n');
}

const textArray = (items: readonly string[]): string => `ARRAY[${items.map(lit).join(', ')}]::text[]`;

/**
 * What grants cannot say, held in the server for every role but administrators: a capability
 * fact's level within its partition's tier (event for junior, heuristic from senior, strategy for
 * master), and audit authorship (the entry's actor is the session's role, its action one that role
 * performs). Also the role names, so a store opened on the schema finds them whatever their prefix.
 */
function enforcementSql(schema: string, roles: PgRoles): string[] {
  const s = quoteIdent(schema);
  const trusted = `pg_has_role(current_user, ${lit(roles.admin)}, 'MEMBER')`;
  return [
    `CREATE OR REPLACE FUNCTION ${s}.statelens_roles() RETURNS TABLE (agent text, reviewer text, admin text)
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ${lit(roles.agent)}, ${lit(roles.reviewer)}, ${lit(roles.admin)} $$;`,
    `CREATE OR REPLACE FUNCTION ${s}.statelens_level_gate() RETURNS trigger
      LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
      DECLARE tier text; kind text;
      BEGIN
        IF NEW.level IS NULL OR ${trusted} THEN RETURN NEW; END IF;
        SELECT coalesce(p.maturity, 'junior'), p.kind INTO tier, kind FROM ${s}.partitions p WHERE p.org_id = NEW.org_id AND p.id = NEW.partition_id;
        IF kind IS DISTINCT FROM 'capability' OR NOT (NEW.level = 'event' OR (NEW.level = 'heuristic' AND tier IN ('senior', 'master')) OR (NEW.level = 'strategy' AND tier = 'master')) THEN
          RAISE EXCEPTION 'A % agent may not write %-level memory', coalesce(tier, 'non-capability'), NEW.level USING ERRCODE = 'insufficient_privilege';
        END IF;
        RETURN NEW;
      END $$;`,
    `DROP TRIGGER IF EXISTS statelens_level_gate ON ${s}.facts;`,
    `CREATE TRIGGER statelens_level_gate BEFORE INSERT OR UPDATE OF level, partition_id, org_id ON ${s}.facts FOR EACH ROW EXECUTE FUNCTION ${s}.statelens_level_gate();`,
    `CREATE OR REPLACE FUNCTION ${s}.statelens_audit_author() RETURNS trigger
      LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
      BEGIN
        IF ${trusted} THEN RETURN NEW; END IF;
        IF NOT ((pg_has_role(current_user, ${lit(roles.agent)}, 'MEMBER') AND NEW.action = ANY (${textArray(PG_AUDIT_ACTIONS.agent)}))
             OR (pg_has_role(current_user, ${lit(roles.reviewer)}, 'MEMBER') AND NEW.action = ANY (${textArray(PG_AUDIT_ACTIONS.reviewer)}))) THEN
          RAISE EXCEPTION 'Role % may not record the audit action %', current_user, NEW.action USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NEW.actor IS DISTINCT FROM current_user::text THEN
          NEW.details := (coalesce(NEW.details, '{}')::jsonb || jsonb_build_object('via', NEW.actor))::text;
          NEW.actor := current_user::text;
        END IF;
        RETURN NEW;
      END $$;`,
    `DROP TRIGGER IF EXISTS statelens_audit_author ON ${s}.audit_log;`,
    `CREATE TRIGGER statelens_audit_author BEFORE INSERT ON ${s}.audit_log FOR EACH ROW EXECUTE FUNCTION ${s}.statelens_audit_author();`,
  ];
}

/**
 * The functions of PG_DELETE_FUNCTIONS. SECURITY DEFINER (owned by the administrators, bound by
 * their row policy: the session's org), search_path pinned. The caller is whoever the session is
 * (its SET ROLE, else its login): inside the function current_user is the owner. A caller that is
 * neither an administrator nor a member covering the partition deletes nothing, as the member
 * policy would let it see nothing.
 */
function deleteFunctionsSql(schema: string, roles: PgRoles): string[] {
  const s = quoteIdent(schema);
  const members = `${s}.${MEMBERS_TABLE}`;
  return [
    // The org whose rows of partition p_partition the caller may delete ('' for an administrator:
    // the owner's policy decides), NULL for none. Called inside the deleting functions.
    `CREATE OR REPLACE FUNCTION ${s}.statelens_delete_scope(p_partition bigint) RETURNS text
      LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $$
      SELECT CASE WHEN r.rolsuper OR pg_has_role(c.who, ${lit(roles.admin)}, 'MEMBER') THEN ''
        ELSE (SELECT m.org_id FROM ${members} m
               WHERE m.org_id = current_setting(${lit(PG_ORG_SETTING)}, true) AND m.role_name = c.who
                 AND (m.partition_ids IS NULL OR p_partition = ANY (m.partition_ids))
                 AND coalesce(nullif(current_setting(${lit(PG_PARTITION_SETTING)}, true), '')::bigint = p_partition, true)) END
        FROM (SELECT CASE WHEN current_setting('role') = 'none' THEN session_user::text ELSE current_setting('role') END AS who) c
        JOIN pg_roles r ON r.rolname = c.who
    $$;`,
    `CREATE OR REPLACE FUNCTION ${s}.${PG_DELETE_FUNCTIONS.facts.signature.replace('(bigint, text)', '(p_partition bigint, p_ids text)')} RETURNS bigint
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
      DECLARE org text := ${s}.statelens_delete_scope(p_partition); n bigint;
      BEGIN
        IF org IS NULL THEN RETURN 0; END IF;
        DELETE FROM ${s}.facts f WHERE f.partition_id = p_partition AND (org = '' OR f.org_id = org)
           AND f.id IN (SELECT json_array_elements_text(p_ids::json));
        GET DIAGNOSTICS n = ROW_COUNT;
        RETURN n;
      END $$;`,
    `CREATE OR REPLACE FUNCTION ${s}.${PG_DELETE_FUNCTIONS.session.signature.replace('(text, bigint, text)', '(p_table text, p_partition bigint, p_session text)')} RETURNS bigint
      LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
      DECLARE org text := ${s}.statelens_delete_scope(p_partition); n bigint;
      BEGIN
        IF NOT p_table = ANY (${textArray(PG_SESSION_TABLES)}) THEN
          RAISE EXCEPTION 'statelens_clear_session clears % only, not %', ${lit(PG_SESSION_TABLES.join(', '))}, p_table USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF org IS NULL THEN RETURN 0; END IF;
        EXECUTE format('DELETE FROM %I.%I t WHERE t.partition_id = $1 AND t.session_id = $2 AND ($3 = '''' OR t.org_id = $3)', ${lit(schema)}, p_table)
          USING p_partition, p_session, org;
        GET DIAGNOSTICS n = ROW_COUNT;
        RETURN n;
      END $$;`,
  ];
}

/** The role names of a schema under the server setup (as it recorded them), or undefined without it. */
export function pgSetupRoles(conn: SyncPg, schema: string): PgRoles | undefined {
  const known = conn.query<{ fn: string | null }>('SELECT to_regprocedure($1) AS fn', [`${quoteIdent(schema)}.statelens_roles()`]).rows[0]?.fn;
  if (!known) return undefined;
  return conn.query<{ agent: string; reviewer: string; admin: string }>(`SELECT agent, reviewer, admin FROM ${quoteIdent(schema)}.statelens_roles()`).rows[0];
}

/**
 * What each group role may do, table by table, as the setup grants it (the README's grant table
 * is this text; a test keeps them equal). Row-level security narrows every row to the session's org.
 */
export function pgGrantTable(): string {
  const lines = ['| Table | agent | reviewer |', '| --- | --- | --- |'];
  for (const [table, spec] of Object.entries(PG_ORG_TABLES)) lines.push(`| \`${table}\` | ${spec.agent.join(', ')} | ${spec.reviewer.join(', ')} |`);
  lines.push(`| ${PG_SHARED_TABLES.map((t) => `\`${t}\``).join(', ')} | SELECT | SELECT |`);
  lines.push(`| \`${WRITE_LOCKS_TABLE}\` (write locks, own org) | ${PG_WRITE_LOCK_GRANTS.join(', ')} | ${PG_WRITE_LOCK_GRANTS.join(', ')} |`);
  const may = (yes: boolean): string => (yes ? 'EXECUTE' : '-');
  for (const fn of Object.values(PG_DELETE_FUNCTIONS))
    lines.push(`| \`${fn.signature}\` (deletes ${fn.deletes}, own org) | ${may(fn.agent)} | ${may(fn.reviewer)} |`);
  lines.push(
    `| audit actions (actor = the login) | ${PG_AUDIT_ACTIONS.agent.join(', ')} | ${PG_AUDIT_ACTIONS.reviewer.join(', ')} |`,
    "| capability levels | within the partition's tier | none |",
  );
  return lines.join('\n');
}

/** Re-indents a statement written inside a template literal: continuation lines by two spaces. */
function tidy(statement: string): string {
  const [first = '', ...rest] = statement.split('\n');
  const indent = Math.min(...rest.filter((l) => l.trim()).map((l) => l.length - l.trimStart().length));
  return [first, ...rest.map((l) => (l.trim() ? `  ${l.slice(indent)}` : ''))].join('\n');
}

/**
 * The setup as a psql script for the default schema and role names, for administrators who apply
 * SQL themselves (shipped as server-setup.sql; a test keeps the file equal to this).
 */
export function pgServerSetupScript(): string {
  const roles = pgRoleNames(DEFAULT_PG_SCHEMA);
  return [
    `-- Statelens server setup for the schema "${DEFAULT_PG_SCHEMA}": the roles ${roles.agent}, ${roles.reviewer} and ${roles.admin},`,
    '-- forced row-level security on every table scoped by org, and the membership table that binds',
    '-- each role to the orgs it may act for. Generated from server-setup.ts (do not edit by hand).',
    `-- Run once the schema is at version ${PG_SCHEMA_VERSION} (statelens init), as a superuser or a role with`,
    '-- CREATEROLE that owns the schema, and again after every migration; every statement is idempotent:',
    '--   psql "$URL" -v ON_ERROR_STOP=1 -1 -f server-setup.sql',
    `SELECT pg_advisory_xact_lock(${MIGRATION_LOCK});`,
    pgServerSetupSql(DEFAULT_PG_SCHEMA, roles),
    '',
  ].join('\n');
}

/**
 * Creates the roles and applies the policies to a schema already at this build's version. Needs a
 * superuser, or a role with CREATEROLE that owns the schema (it becomes an administrator).
 */
export function applyPgServerSetup(conn: SyncPg, options: PgServerSetupOptions = {}): PgServerSetupResult {
  const schema = requirePgSchemaName(options.schema ?? DEFAULT_PG_SCHEMA);
  const roles = pgRoleNames(requirePgSchemaName(options.rolePrefix ?? schema));
  return conn.transaction(() => {
    conn.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const state = inspectPgSchema(conn, schema);
    const version = checkPgSchema(state, schema, conn.where, PG_SCHEMA_VERSION);
    if (version !== PG_SCHEMA_VERSION) {
      throw new StatelensError(
        'INVALID_INPUT',
        `Schema "${schema}" on ${conn.where} is at version ${version}, not ${PG_SCHEMA_VERSION}: create or migrate it (statelens init) before the server setup`,
        { schemaVersion: version, supportedVersion: PG_SCHEMA_VERSION },
      );
    }
    const known = new Set([...Object.keys(PG_ORG_TABLES), ...PG_SHARED_TABLES, WRITE_LOCKS_TABLE]);
    const unnamed = state.tables.filter((t) => !known.has(t));
    if (unnamed.length > 0) {
      throw new StatelensError('INTERNAL', `Schema "${schema}" has tables the server setup does not cover: ${unnamed.join(', ')}`, { tables: unnamed });
    }
    conn.exec(pgServerSetupSql(schema, roles));
    return { schema, roles, tables: Object.keys(PG_ORG_TABLES) };
  });
}

/** True when the server setup has been applied to the schema (its sessions must then be bound to an org). */
export function pgServerSetupApplied(conn: SyncPg, schema: string = DEFAULT_PG_SCHEMA): boolean {
  return inspectPgSchema(conn, schema).tables.includes(MEMBERS_TABLE);
}

export interface PgSessionBinding {
  /** The org the session acts for ('' with allOrgs: none in particular). */
  readonly org: string;
  /** Narrows the transaction to one partition of the org. */
  readonly partitionId?: number | null;
  /** Administrators only: every org at once (listings across orgs, copies of a whole store). */
  readonly allOrgs?: boolean;
  /** A login the transaction acts as (SET LOCAL ROLE), on a connection shared by several clients
   * that cannot each log in (PGlite has one connection): grants and policies are that login's. */
  readonly role?: string;
}

/**
 * Binds the current transaction to an org (and partition). Transaction-local (set_config's third
 * argument), so a pooled connection never carries one transaction's org into the next; outside a
 * transaction it would last one statement, hence the guard.
 */
export function bindPgTransaction(conn: SyncPg, binding: PgSessionBinding): void {
  if (!conn.inTransaction) throw new StatelensError('INTERNAL', 'An org binding lasts one transaction: bind inside conn.transaction()');
  if (binding.role) conn.query(`SET LOCAL ROLE ${quoteIdent(binding.role)}`);
  // Every lock wait of the transaction is bounded (BUSY after LOCK_WAIT_MS): a role that may
  // DELETE from a table may also LOCK it whole, whichever org it acts for.
  conn.query('SELECT set_config($1, $2, true), set_config($3, $4, true), set_config($5, $6, true), set_config($7, $8, true)', [
    PG_ORG_SETTING,
    binding.org,
    PG_PARTITION_SETTING,
    binding.partitionId === undefined || binding.partitionId === null ? '' : String(binding.partitionId),
    PG_ALL_ORGS_SETTING,
    binding.allOrgs ? 'on' : 'off',
    'lock_timeout',
    `${LOCK_WAIT_MS}ms`,
  ]);
}

/**
 * Throws PERMISSION_DENIED unless the connection's role may act for the org (as a member, or as an
 * administrator). Meant for connection time: a role that is not a member would otherwise only see
 * an empty store.
 */
export function checkPgMembership(conn: SyncPg, binding: PgSessionBinding, options: PgServerSetupOptions = {}): void {
  const schema = options.schema ?? DEFAULT_PG_SCHEMA;
  const seen = conn.transaction(() => {
    bindPgTransaction(conn, binding);
    return conn.query<{ org: string | null; parts: string[] | null; role: string; superuser: boolean }>(
      `SELECT ${quoteIdent(schema)}.statelens_session_org() AS org, ${quoteIdent(schema)}.statelens_session_partitions()::text[] AS parts,
              current_user::text AS role, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser`,
    ).rows[0];
  });
  if (!seen || seen.superuser) return;
  const roles = options.rolePrefix !== undefined ? pgRoleNames(options.rolePrefix) : (pgSetupRoles(conn, schema) ?? pgRoleNames(schema));
  // In a bound transaction: a binding's role is current_user only there.
  const admin = conn.transaction(() => {
    bindPgTransaction(conn, binding);
    return conn.query<{ yes: boolean }>('SELECT pg_has_role(current_user, $1, $2) AS yes', [roles.admin, 'MEMBER']).rows[0]?.yes;
  });
  if (admin) return;
  if (binding.allOrgs) {
    throw new StatelensError(
      'PERMISSION_DENIED',
      `Role "${seen.role}" is not an administrator of schema "${schema}": only administrators work across every org`,
      {
        role: seen.role,
      },
    );
  }
  if (seen.org === null) {
    throw new StatelensError('PERMISSION_DENIED', `Role "${seen.role}" is not a member of org "${binding.org}" in schema "${schema}"`, {
      role: seen.role,
      org: binding.org,
    });
  }
  if (seen.parts !== null && seen.parts.length === 0) {
    throw new StatelensError('PERMISSION_DENIED', `Role "${seen.role}" may not see partition ${String(binding.partitionId)} of org "${binding.org}"`, {
      role: seen.role,
      org: binding.org,
      partitionId: binding.partitionId,
    });
  }
}
