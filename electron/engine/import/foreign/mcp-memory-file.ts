// Writing back to the MCP memory server's JSONL file: removing an observation, an entity (with
// its relations) or a relation, atomically (temporary file, fsync, rename) and only over the
// version of the file that was read (compare-and-swap on its content hash), leaving FILE.bak.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { StatelensError } from '../../../../shared/errors';
import { isRecord } from './plan';

/** What a fact imported from the memory file stands for in it. */
export type MemoryOrigin =
  | { readonly kind: 'entity'; readonly entity: string }
  | { readonly kind: 'observation'; readonly entity: string; readonly text: string }
  | { readonly kind: 'relation'; readonly from: string; readonly relationType: string; readonly to: string };

export const contentHash = (content: string): string => crypto.createHash('sha256').update(content).digest('hex');

/** A unique string per origin (two facts standing for the same record share it). */
export function originKey(o: MemoryOrigin): string {
  if (o.kind === 'entity') return JSON.stringify(['entity', o.entity]);
  if (o.kind === 'observation') return JSON.stringify(['observation', o.entity, o.text]);
  return JSON.stringify(['relation', o.from, o.relationType, o.to]);
}

/** `content` without the records `removals` name; lines it does not touch are kept byte for
 * byte. `removed` counts the records taken out (0: the file no longer holds any of them). */
export function removeFromGraph(content: string, removals: readonly MemoryOrigin[]): { content: string; removed: number } {
  const entities = new Set(removals.flatMap((r) => (r.kind === 'entity' ? [r.entity] : [])));
  const observations = new Map<string, Set<string>>();
  for (const r of removals) if (r.kind === 'observation') observations.set(r.entity, (observations.get(r.entity) ?? new Set()).add(r.text));
  const relations = new Set(removals.flatMap((r) => (r.kind === 'relation' ? [originKey(r)] : [])));
  let removed = 0;
  const out: string[] = [];
  for (const line of content.split('\n')) {
    let json: unknown;
    try {
      json = line.trim() === '' ? undefined : JSON.parse(line);
    } catch {
      json = undefined;
    }
    if (!isRecord(json)) {
      out.push(line);
      continue;
    }
    if (json.type === 'entity' && typeof json.name === 'string') {
      if (entities.has(json.name)) {
        removed++;
        continue;
      }
      const drop = observations.get(json.name);
      if (drop && Array.isArray(json.observations) && json.observations.some((o) => typeof o === 'string' && drop.has(o))) {
        const kept = json.observations.filter((o) => !(typeof o === 'string' && drop.has(o)));
        removed += json.observations.length - kept.length;
        out.push(JSON.stringify({ ...json, observations: kept }));
        continue;
      }
    } else if (json.type === 'relation' && typeof json.from === 'string' && typeof json.to === 'string' && typeof json.relationType === 'string') {
      const key = originKey({ kind: 'relation', from: json.from, relationType: json.relationType, to: json.to });
      if (relations.has(key) || entities.has(json.from) || entities.has(json.to)) {
        removed++;
        continue;
      }
    }
    out.push(line);
  }
  return { content: out.join('\n'), removed };
}

/** Replaces `file` with `content` only while it still holds the version whose hash is
 * `expectedHash`: CONFLICT (and the file untouched) when it changed since it was read. The
 * version replaced is kept as FILE.bak. A writer that replaces the file in the instant between
 * the last check and the rename is not seen: the server keeps no lock to take. */
export function replaceMemoryFile(file: string, expectedHash: string, content: string): void {
  const changed = (): boolean => contentHash(fs.readFileSync(file, 'utf8')) !== expectedHash;
  if (changed()) throw new StatelensError('CONFLICT', `${file} changed since it was read; it was not written`);
  const dir = path.dirname(file);
  const tmp = path.join(dir, `.${path.basename(file)}.statelens-${process.pid}.tmp`);
  const backup = `${file}.bak`;
  try {
    writeSynced(tmp, content, fs.statSync(file).mode & 0o777);
    fs.copyFileSync(file, `${backup}.tmp`);
    syncFile(`${backup}.tmp`);
    fs.renameSync(`${backup}.tmp`, backup);
    if (changed()) throw new StatelensError('CONFLICT', `${file} changed while it was being rewritten; it was not written`);
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
    fs.rmSync(`${backup}.tmp`, { force: true });
  }
  syncDir(dir);
}

function writeSynced(file: string, content: string, mode: number): void {
  const fd = fs.openSync(file, 'w', mode);
  try {
    fs.writeFileSync(fd, content);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes the rename durable; some file systems refuse to fsync a folder, which loses nothing. */
function syncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // A folder that cannot be opened for fsync (some platforms): the rename itself stands.
  }
}
