// No agent or reviewer can take a whole-table lock strong enough to hold another org's writers:
// PostgreSQL lets any holder of table-level UPDATE, DELETE or TRUNCATE take every mode, so those
// roles hold none of them (column UPDATE and INSERT allow at most ROW EXCLUSIVE; deletes go
// through the setup's own functions). Checked on PGlite always, on the server when configured.
import { beforeAll, describe, expect, it } from 'vitest';
import { PG_ORG_TABLES } from '../../electron/engine/db/pg/server-setup';
import { WRITE_LOCKS_TABLE } from '../../electron/engine/db/pg/row-locks';
import { quoteIdent } from '../../electron/engine/db/pg/sync-client';
import { codeOf } from '../helpers/errors';
import { openRoleStores, ROLE_STORE_KINDS, startRoleStores } from '../helpers/role-stores';

const STRONG_MODES = ['SHARE', 'SHARE ROW EXCLUSIVE', 'EXCLUSIVE', 'ACCESS EXCLUSIVE'] as const;
const TABLES = [...Object.keys(PG_ORG_TABLES), WRITE_LOCKS_TABLE];

for (const kind of ROLE_STORE_KINDS) {
  describe(`whole-table locks under the server setup [${kind}]`, () => {
    beforeAll(() => startRoleStores(kind));

    it('refuses every mode above ROW EXCLUSIVE on every org table to agents and reviewers', () => {
      const stores = openRoleStores(kind);
      const taken: string[] = [];
      for (const role of ['agent', 'reviewer'] as const) {
        for (const table of TABLES) {
          for (const mode of STRONG_MODES) {
            const code = codeOf(() => stores.sql(role, `LOCK TABLE ${quoteIdent(stores.schema)}.${quoteIdent(table)} IN ${mode} MODE NOWAIT`));
            if (code !== 'PERMISSION_DENIED') taken.push(`${role} ${table} ${mode}: ${code}`);
          }
        }
      }
      expect(taken).toEqual([]);
      // The statement itself works: the mode an insert takes anyway is granted.
      expect(codeOf(() => stores.sql('agent', `LOCK TABLE ${quoteIdent(stores.schema)}.facts IN ROW EXCLUSIVE MODE NOWAIT`))).toBe('no error');
    });
  });
}
