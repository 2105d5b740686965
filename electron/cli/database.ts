// How a command reaches its database: the --db file (or a JSON/NDJSON snapshot standing in for
// one, read-only) and the partition --partition names.
import fs from 'node:fs';
import { StatelensError } from '../../shared/errors';
import { parseDesignation } from '../engine/ingest/designation';
import { isTextSnapshot, openSnapshotReadOnly } from '../engine/snapshot/open';
import { Store } from '../engine/store';
import { requireString, type ParsedCli } from './command';

/** Opens the --db file: read-only commands never create or migrate it, and also read a JSON or
 * NDJSON snapshot (imported into a temporary database that closing the store removes). */
export function openDb(args: ParsedCli, mode: { readonly?: boolean; create?: boolean }): Store {
  const path = requireString(args, 'db');
  if (!mode.create && !fs.existsSync(path)) throw new StatelensError('NOT_FOUND', `${path} does not exist`);
  if (mode.readonly && isTextSnapshot(path)) return openSnapshotReadOnly(path).store;
  return Store.open(path, { readonly: mode.readonly ?? false, create: mode.create ?? false });
}

/** --partition as a numeric id or a designation (user:ORG/USER, capability:ORG/NAME, org:ORG). */
export function partitionIdArg(store: Store, value: string | undefined): number | null {
  if (value === undefined) return null;
  if (/^\d+$/.test(value)) return store.scopeById(Number(value)).id;
  return store.scope(parseDesignation(value)).id;
}
