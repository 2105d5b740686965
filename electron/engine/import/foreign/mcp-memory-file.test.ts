import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash, removeFromGraph, replaceMemoryFile } from './mcp-memory-file';

const graph = [
  '{"type":"entity","name":"Ann","entityType":"person","observations":["CFO","Likes tea","CFO"]}',
  '{"type":"entity","name":"Bob","entityType":"person","observations":["Has a cat"]}',
  '{"type":"relation","from":"Ann","to":"Bob","relationType":"knows"}',
  '{"type":"relation","from":"Ann","to":"Acme","relationType":"works_at"}',
].join('\n');

describe('removeFromGraph', () => {
  it('removes an observation (every copy of it) and keeps other lines byte for byte', () => {
    const r = removeFromGraph(graph, [{ kind: 'observation', entity: 'Ann', text: 'CFO' }]);
    expect(r.removed).toBe(2);
    const lines = r.content.split('\n');
    expect(JSON.parse(lines[0] as string)).toEqual({ type: 'entity', name: 'Ann', entityType: 'person', observations: ['Likes tea'] });
    expect(lines.slice(1)).toEqual(graph.split('\n').slice(1));
  });

  it('removes an entity with the relations naming it, and a single relation', () => {
    const r = removeFromGraph(graph, [{ kind: 'entity', entity: 'Bob' }]);
    expect(r.removed).toBe(2);
    expect(r.content).not.toMatch(/Bob/);
    const rel = removeFromGraph(graph, [{ kind: 'relation', from: 'Ann', relationType: 'works_at', to: 'Acme' }]);
    expect(rel.removed).toBe(1);
    expect(rel.content).not.toMatch(/works_at/);
    expect(rel.content).toMatch(/knows/);
  });

  it('removes nothing when the file no longer holds the record', () => {
    expect(removeFromGraph(graph, [{ kind: 'observation', entity: 'Ann', text: 'gone' }])).toEqual({ content: graph, removed: 0 });
  });
});

describe('replaceMemoryFile', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-memfile-'));
    file = path.join(dir, 'memory.jsonl');
    fs.writeFileSync(file, graph, { mode: 0o640 });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('replaces the version it read, keeping it as FILE.bak with the file mode, and leaves no temporary file', () => {
    replaceMemoryFile(file, contentHash(graph), 'new\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('new\n');
    expect(fs.readFileSync(`${file}.bak`, 'utf8')).toBe(graph);
    expect(fs.statSync(file).mode & 0o777).toBe(0o640);
    expect(fs.readdirSync(dir).sort()).toEqual(['memory.jsonl', 'memory.jsonl.bak']);
  });

  it('refuses when the file changed since it was read, and leaves it untouched', () => {
    const readHash = contentHash(graph);
    fs.appendFileSync(file, '\n{"type":"entity","name":"Cy","entityType":"person","observations":[]}');
    const now = fs.readFileSync(file, 'utf8');
    expect(() => replaceMemoryFile(file, readHash, 'clobbered\n')).toThrow(/changed since it was read; it was not written/);
    expect(fs.readFileSync(file, 'utf8')).toBe(now);
    expect(fs.readdirSync(dir)).toEqual(['memory.jsonl']);
  });
});
