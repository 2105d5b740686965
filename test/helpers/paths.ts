// Where the files tests start or read live in the repository: one place, so that a test moved
// to another folder does not have to count `..`s again.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The `statelens` launcher a user runs. */
export const cliEntry = path.join(repoRoot, 'electron', 'cli', 'statelens.mjs');
/** The engine worker an EngineHost starts. */
export const WORKER_PATH = path.join(repoRoot, 'electron', 'engine-host', 'worker-node.mjs');
