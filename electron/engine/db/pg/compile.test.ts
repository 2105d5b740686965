// The SQLite-to-PostgreSQL statement compiler: each translation on the statements the engine
// writes, literals and quoted names left alone, and SQLite-only constructs refused by name.
import { describe, expect, it } from 'vitest';
import { StatelensError } from '../../../../shared/errors';
import { sqliteDialect } from '../dialect';
import { postgresDialect } from './compile';

const pg = (sql: string): string => postgresDialect.compile(sql).text.replace(/\s+/g, ' ').trim();

describe('the PostgreSQL dialect compiles SQLite statements', () => {
  it('numbers placeholders and records how each binds; a name used twice binds once', () => {
    expect(postgresDialect.compile('SELECT * FROM facts WHERE id = ? AND partition_id = ?')).toEqual({
      text: 'SELECT * FROM facts WHERE id = $1 AND partition_id = $2',
      binds: [{ index: 1 }, { index: 2 }],
    });
    expect(postgresDialect.compile('SELECT * FROM audit_log WHERE (@pid IS NULL OR partition_id = @pid) AND id < @before')).toEqual({
      text: 'SELECT * FROM audit_log WHERE ($1::text IS NULL OR partition_id = $2) AND id < $3',
      binds: [{ name: 'pid' }, { name: 'pid' }, { name: 'before' }],
    });
    expect(postgresDialect.compile('SELECT ?2, ?1, ?').binds).toEqual([{ index: 2 }, { index: 1 }, { index: 3 }]);
  });

  it('leaves string literals, quoted names and comments as they are', () => {
    expect(pg(`SELECT 'a ? b IS c', "x?y" FROM t -- where ? is\nWHERE k = ?`)).toBe(`SELECT 'a ? b IS c', "x?y" FROM t -- where ? is WHERE k = $1`);
  });

  it('null-safe IS, index hints, LIKE, temp tables and renamed functions', () => {
    expect(pg('SELECT id FROM facts f WHERE +f.scope = ? AND +f.scope_id IS ? AND x IS NOT ? AND y IS NULL AND z IS NOT NULL')).toBe(
      'SELECT id FROM facts f WHERE f.scope = $1 AND f.scope_id IS NOT DISTINCT FROM $2 AND x IS DISTINCT FROM $3 AND y IS NULL AND z IS NOT NULL',
    );
    expect(pg('SELECT a + b FROM facts INDEXED BY facts_partition_ts WHERE key LIKE ? ESCAPE ?')).toBe('SELECT a + b FROM facts WHERE key ILIKE $1 ESCAPE $2');
    expect(pg('INSERT INTO temp.sl_del (id) SELECT id FROM facts')).toBe('INSERT INTO pg_temp.sl_del (id) SELECT id FROM facts');
    expect(pg('CREATE TEMP TABLE IF NOT EXISTS sl_w (id TEXT PRIMARY KEY, next TEXT) WITHOUT ROWID; DELETE FROM temp.sl_w;')).toBe(
      'CREATE TEMP TABLE IF NOT EXISTS sl_w (id TEXT PRIMARY KEY, next TEXT) ; DELETE FROM pg_temp.sl_w;',
    );
    expect(pg('SELECT ifnull(a, 0), instr(a, b), max(a, b), max(a), group_concat(k), group_concat(k, ?) FROM t')).toBe(
      "SELECT coalesce(a, 0), strpos(a, b), greatest(a, b), max(a), string_agg(k::text, ','), string_agg(k, $1) FROM t",
    );
  });

  it('reads JSON arrays with json_array_elements_text, keeping the `value` column', () => {
    expect(pg('SELECT id FROM facts WHERE id NOT IN (SELECT value FROM json_each(?))')).toBe(
      'SELECT id FROM facts WHERE id NOT IN (SELECT value FROM json_array_elements_text(($1)::json))',
    );
    expect(pg('SELECT 1 FROM json_each(target_ids) WHERE value = ?')).toBe('SELECT 1 FROM json_array_elements_text((target_ids)::json) WHERE value = $1');
    // A named one has SQLite's `key` too (its position), with or without AS.
    expect(pg('SELECT j.value FROM audit_log a CROSS JOIN json_each(a.target_ids) AS j ORDER BY j.key')).toBe(
      'SELECT j.value FROM audit_log a CROSS JOIN json_array_elements_text((a.target_ids)::json) WITH ORDINALITY AS j(value, key) ORDER BY j.key NULLS FIRST',
    );
  });

  it('turns INSERT OR IGNORE into ON CONFLICT DO NOTHING and leads conflict targets with the org', () => {
    expect(pg('INSERT OR IGNORE INTO fact_edges (partition_id, dependent, depends_on) VALUES (?, ?, ?)')).toBe(
      'INSERT INTO fact_edges (partition_id, dependent, depends_on) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
    );
    expect(
      pg(`INSERT INTO agent_states (partition_id, session_id, state, updated_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (partition_id, session_id) DO UPDATE SET state = excluded.state`),
    ).toBe(
      'INSERT INTO agent_states (partition_id, session_id, state, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (org_id, partition_id, session_id) DO UPDATE SET state = excluded.state',
    );
    // A reference table's key has no org.
    expect(pg("INSERT INTO statelens_meta (key, value) VALUES ('k', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value")).toBe(
      "INSERT INTO statelens_meta (key, value) VALUES ('k', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
  });

  it('orders NULL lowest, as SQLite does, in every ORDER BY item', () => {
    expect(pg('SELECT id FROM facts ORDER BY f.ts DESC, substr(value, 1, 64), rid ASC LIMIT 5')).toBe(
      'SELECT id FROM facts ORDER BY f.ts DESC NULLS LAST, substr(value, 1, 64) NULLS FIRST, rid ASC NULLS FIRST LIMIT 5',
    );
    expect(pg('SELECT (SELECT x FROM t ORDER BY x) AS y FROM u ORDER BY (a = 1 AND b) DESC')).toBe(
      'SELECT (SELECT x FROM t ORDER BY x NULLS FIRST) AS y FROM u ORDER BY (a = 1 AND b) DESC NULLS LAST',
    );
  });

  it('names a subquery in FROM that has no name, as PostgreSQL 15 requires', () => {
    expect(pg('SELECT count(*) FROM (SELECT id FROM facts WHERE x = ?) WHERE 1 = 1')).toBe(
      'SELECT count(*) FROM (SELECT id FROM facts WHERE x = $1) AS sl_sub1 WHERE 1 = 1',
    );
    expect(pg('SELECT * FROM (SELECT 1) AS a JOIN (SELECT 2) b ON 1 = 1 JOIN (SELECT 3) ON true')).toBe(
      'SELECT * FROM (SELECT 1) AS a JOIN (SELECT 2) b ON 1 = 1 JOIN (SELECT 3) AS sl_sub1 ON true',
    );
    expect(pg('SELECT id FROM facts WHERE id IN (SELECT id FROM facts)')).toBe('SELECT id FROM facts WHERE id IN (SELECT id FROM facts)');
  });

  it('reads a negative LIMIT as no limit and CROSS JOIN … ON as a join', () => {
    expect(pg('SELECT id FROM saved_queries ORDER BY id LIMIT ?')).toBe(
      'SELECT id FROM saved_queries ORDER BY id NULLS FIRST LIMIT NULLIF(GREATEST($1, -1), -1)',
    );
    expect(pg('SELECT f.id FROM json_each(?) j CROSS JOIN facts f ON f.id = j.value WHERE f.partition_id = ?')).toBe(
      'SELECT f.id FROM json_array_elements_text(($1)::json) WITH ORDINALITY AS j(value, key) JOIN facts f ON f.id = j.value WHERE f.partition_id = $2',
    );
    expect(pg('SELECT 1 FROM a CROSS JOIN b WHERE a.x = b.y')).toBe('SELECT 1 FROM a CROSS JOIN b WHERE a.x = b.y');
  });

  it('reads julianday() as days since the epoch plus its Julian day number, in float8', () => {
    expect(pg('SELECT (julianday(@now) - julianday(f.ts)) * 24.0 FROM facts f')).toBe(
      'SELECT ((CAST(EXTRACT(EPOCH FROM CAST(CAST($1 AS text) AS timestamptz)) AS double precision) / 86400.0 + 2440587.5) - (CAST(EXTRACT(EPOCH FROM CAST(CAST(f.ts AS text) AS timestamptz)) AS double precision) / 86400.0 + 2440587.5)) * 24.0 FROM facts f',
    );
  });

  it('refuses SQLite-only constructs it cannot translate yet, by name', () => {
    for (const [sql, construct] of [
      ['SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?', 'rowid'],
      ['SELECT 1 FROM facts_fts WHERE facts_fts MATCH @fts', 'full-text MATCH (FTS5)'],
      ['INSERT OR REPLACE INTO t VALUES (1)', 'INSERT OR REPLACE'],
      ["SELECT strftime('%s', ts) FROM facts", 'strftime()'],
      ['PRAGMA user_version', 'PRAGMA'],
    ] as const) {
      let error: unknown;
      try {
        postgresDialect.compile(sql);
      } catch (e) {
        error = e;
      }
      expect(error, sql).toBeInstanceOf(StatelensError);
      expect(error).toMatchObject({ code: 'NOT_SUPPORTED', details: { construct } });
    }
  });

  it('SQLite runs every statement as written', () => {
    const sql = 'SELECT id FROM facts WHERE +f.scope_id IS ? ORDER BY ts';
    expect(sqliteDialect.compile(sql)).toEqual({ text: sql, binds: [] });
  });
});
