// `statelens mcp --http` as a real child process: waits for the URL and token it prints, and
// stops it (SIGTERM, then waits for its exit) when done.
import { spawn, type ChildProcess } from 'node:child_process';
import { cliEntry, repoRoot } from '../helpers/paths';

export interface HttpMcpChild {
  readonly url: string;
  readonly token: string;
  readonly child: ChildProcess;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startHttpMcp(
  db: string,
  extraArgs: readonly string[] = [],
  env: Record<string, string> = {},
  timeoutMs = 180_000,
): Promise<HttpMcpChild> {
  const child = spawn(process.execPath, [cliEntry, 'mcp', '--http', '--db', db, ...extraArgs], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = await new Promise<{ url: string; token: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`statelens mcp --http did not start:\n${stderr}`)), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
      const url = /over Streamable HTTP at (\S+)/.exec(stderr)?.[1];
      const token = /bearer token (\S+)/.exec(stderr)?.[1] ?? env.STATELENS_MCP_TOKEN;
      if (url && token) {
        clearTimeout(timer);
        resolve({ url, token });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`statelens mcp --http exited with ${code}:\n${stderr}`));
    });
  });
  return {
    ...started,
    child,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
