// What each group role of a deployment can actually do, read from the server's catalogue (table
// and column privileges as PostgreSQL answers has_table_privilege for them), set beside what the
// server setup grants: a grant added or lost by hand shows as a difference.
import { quoteIdent, type SyncPg } from './sync-client';
import { WRITE_LOCKS_TABLE } from './row-locks';
import {
  PG_AUDIT_ACTIONS,
  PG_DELETE_FUNCTIONS,
  PG_ORG_TABLES,
  PG_SHARED_TABLES,
  PG_WRITE_LOCK_GRANTS,
  pgSetupRoles,
  UPDATE_EVERY_COLUMN,
} from './server-setup';

export interface PgRoleGrants {
  readonly group: 'agent' | 'reviewer';
  readonly role: string;
  /** Table -> privileges, `UPDATE (columns)` when only some columns may be updated. */
  readonly tables: Readonly<Record<string, readonly string[]>>;
  readonly auditActions: readonly string[];
  /** The setup's deleting functions (PG_DELETE_FUNCTIONS) the role may call. */
  readonly deleteFunctions: readonly string[];
}

export interface PgRoleReport {
  readonly schema: string;
  readonly admin: string;
  readonly roles: readonly PgRoleGrants[];
  /** `role table: has X, setup grants Y` for every table where the two differ. */
  readonly differences: readonly string[];
}

const PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const;

/** Column lists sorted, so two spellings of the same grant compare equal. */
function normalise(privileges: readonly string[]): string {
  return privileges
    .map((p) =>
      p.replace(
        /\(([^)]*)\)/,
        (_, cols: string) =>
          `(${cols
            .split(',')
            .map((c) => c.trim())
            .sort()
            .join(', ')})`,
      ),
    )
    .sort()
    .join(', ');
}

/** The grants of the schema's agent and reviewer roles, or undefined when the setup was not applied. */
export function pgRoleReport(conn: SyncPg, schema: string): PgRoleReport | undefined {
  const roles = pgSetupRoles(conn, schema);
  if (!roles) return undefined;
  const rows = conn.query<{ t: string; role: string; privs: string[]; cols: string[] | null; ncols: number }>(
    `SELECT c.relname AS t, r.g AS role,
            (SELECT count(*)::int FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS ncols,
            array_remove(ARRAY[${PRIVILEGES.map((p) => `CASE WHEN has_table_privilege(r.g, c.oid, '${p}') THEN '${p}' END`).join(', ')}], NULL) AS privs,
            (SELECT array_agg(a.attname::text ORDER BY a.attnum) FROM pg_attribute a
              WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND has_column_privilege(r.g, c.oid, a.attnum, 'UPDATE')) AS cols
       FROM pg_class c CROSS JOIN unnest($2::text[]) AS r(g)
      WHERE c.relnamespace = to_regnamespace($1) AND c.relkind = 'r'
      ORDER BY 1, 2`,
    [quoteIdent(schema), [roles.agent, roles.reviewer]],
  ).rows;
  const differences: string[] = [];
  const report = (['agent', 'reviewer'] as const).map((group) => {
    const role = roles[group];
    const tables: Record<string, string[]> = {};
    for (const row of rows.filter((r) => r.role === role)) {
      const privs = row.privs;
      const cols = !privs.includes('UPDATE') && row.cols ? row.cols : [];
      const partial = cols.length === 0 ? [] : [cols.length === row.ncols ? UPDATE_EVERY_COLUMN : `UPDATE (${cols.join(', ')})`];
      const has = [...privs, ...partial];
      tables[row.t] = has;
      const expected =
        PG_ORG_TABLES[row.t]?.[group] ?? (row.t === WRITE_LOCKS_TABLE ? PG_WRITE_LOCK_GRANTS : PG_SHARED_TABLES.includes(row.t) ? ['SELECT'] : []);
      if (normalise(has) !== normalise(expected)) {
        differences.push(`${role} ${row.t}: has ${has.join(', ') || 'nothing'}, the setup grants ${expected.join(', ') || 'nothing'}`);
      }
    }
    const deleteFunctions: string[] = [];
    for (const fn of Object.values(PG_DELETE_FUNCTIONS)) {
      const qualified = `${quoteIdent(schema)}.${fn.signature}`;
      const found = conn.query<{ may: boolean | null }>(
        "SELECT CASE WHEN to_regprocedure($2) IS NOT NULL THEN has_function_privilege($1, to_regprocedure($2), 'EXECUTE') END AS may",
        [role, qualified],
      ).rows[0]?.may;
      if (found) deleteFunctions.push(fn.signature);
      if (found === null || found === undefined) differences.push(`${role} ${fn.signature}: missing, the setup creates it`);
      else if (found !== fn[group])
        differences.push(`${role} ${fn.signature}: ${found ? 'may' : 'may not'} call it, the setup ${fn[group] ? 'lets it' : 'does not'}`);
    }
    return { group, role, tables, auditActions: PG_AUDIT_ACTIONS[group], deleteFunctions };
  });
  return { schema, admin: roles.admin, roles: report, differences };
}

/** The report as lines for a terminal: per role, each table and what the role may do with it. */
export function formatPgRoleReport(r: PgRoleReport): string[] {
  const lines = [`Roles of schema "${r.schema}" (${r.admin}: owns the schema, does everything else):`];
  for (const role of r.roles) {
    lines.push(`${role.role} (${role.group}); audit actions, as itself: ${role.auditActions.join(', ')}`);
    for (const [table, privs] of Object.entries(role.tables)) lines.push(`  ${table.padEnd(26)} ${privs.join(', ') || '-'}`);
    lines.push(`  deletes through            ${role.deleteFunctions.join(', ') || '-'}`);
  }
  lines.push(r.differences.length === 0 ? 'Grants match the server setup.' : `${r.differences.length} grants differ from the server setup:`);
  for (const d of r.differences) lines.push(`  ${d}`);
  return lines;
}
