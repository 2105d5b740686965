// A private PostgreSQL 15 cluster for tests that need what the shared test server lacks: password
// (SCRAM) authentication and TLS with a certificate from a throwaway authority. It lives in a
// temporary folder on a free port, runs as the `postgres` OS user, and `stop()` removes all of it.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const PG_BIN = '/usr/lib/postgresql/15/bin';
/** The OS user the server runs as: initdb and postgres refuse to run as root. */
const PG_OS_USER = 'postgres';

/** Why a private cluster cannot start on this machine, or undefined when it can. */
export function privateClusterSkipReason(): string | undefined {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) {
    return 'not running as root on Linux: the private PostgreSQL cluster (password and TLS tests) needs to start a server as the postgres user';
  }
  for (const bin of ['initdb', 'pg_ctl', 'postgres']) {
    if (!fs.existsSync(path.join(PG_BIN, bin))) return `${path.join(PG_BIN, bin)} is missing: the password and TLS tests need PostgreSQL 15's server binaries`;
  }
  if (spawnSync('openssl', ['version']).status !== 0) return 'openssl is not available: the TLS tests make their certificates with it';
  if (spawnSync('runuser', ['-u', PG_OS_USER, '--', 'true']).status !== 0) {
    return `runuser -u ${PG_OS_USER} does not work here: the private PostgreSQL cluster runs as that user`;
  }
  return undefined;
}

export interface PrivateCluster {
  readonly port: number;
  /** The authority that signed the server's certificate (issued for `localhost` only). */
  readonly caFile: string;
  /** An authority that signed nothing the server has. */
  readonly otherCaFile: string;
  /** Stops the server (immediately) and removes its folder; safe to call twice. */
  stop(): void;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function openssl(args: readonly string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** The authority, the server's certificate for `localhost` signed by it, and a second authority. */
function makeCertificates(dir: string): void {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Statelens test CA', '-keyout', 'ca.key', '-out', 'ca.crt'], dir);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr'], dir);
  fs.writeFileSync(path.join(dir, 'server.ext'), 'subjectAltName=DNS:localhost\n');
  openssl(
    ['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'server.ext', '-out', 'server.crt'],
    dir,
  );
  openssl(
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=Statelens unrelated CA', '-keyout', 'other.key', '-out', 'other.crt'],
    dir,
  );
  // The server refuses a private key others can read.
  fs.chmodSync(path.join(dir, 'server.key'), 0o600);
}

function asPostgres(command: string, args: readonly string[]): void {
  execFileSync('runuser', ['-u', PG_OS_USER, '--', path.join(PG_BIN, command), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts a cluster whose superuser `postgres` has `password`, that listens on localhost only with
 * TLS on (unless `ssl: false`), and whose pg_hba.conf is `hba` (e.g. `hostssl all all 127.0.0.1/32
 * scram-sha-256`).
 */
export async function startPrivateCluster(options: { readonly password: string; readonly hba: string; readonly ssl?: boolean }): Promise<PrivateCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statelens-private-pg-'));
  const data = path.join(dir, 'data');
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      try {
        asPostgres('pg_ctl', ['stop', '-D', data, '-m', 'immediate', '-w', '-t', '30']);
      } catch {
        // Stopped already (or never came up): the folder goes either way.
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    makeCertificates(dir);
    const pwfile = path.join(dir, 'pwfile');
    fs.writeFileSync(pwfile, `${options.password}\n`, { mode: 0o600 });
    execFileSync('chown', ['-R', `${PG_OS_USER}:`, dir]);
    asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync']);
    fs.rmSync(pwfile);
    const port = await freePort();
    // The server's own files stay in the temporary folder; the machine's main cluster is untouched.
    fs.writeFileSync(path.join(data, 'pg_hba.conf'), `${options.hba}\n`);
    fs.appendFileSync(
      path.join(data, 'postgresql.conf'),
      [
        `port = ${port}`,
        `listen_addresses = 'localhost'`,
        `unix_socket_directories = '${dir}'`,
        `ssl = ${options.ssl === false ? 'off' : 'on'}`,
        `ssl_cert_file = '${path.join(dir, 'server.crt')}'`,
        `ssl_key_file = '${path.join(dir, 'server.key')}'`,
        `password_encryption = 'scram-sha-256'`,
        `fsync = off`,
        '',
      ].join('\n'),
    );
    started = true;
    try {
      asPostgres('pg_ctl', ['start', '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60']);
    } catch (e) {
      const log = fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : '';
      throw new Error(`the private PostgreSQL cluster did not start: ${String(e)}\n${log}`, { cause: e });
    }
    return { port, caFile: path.join(dir, 'ca.crt'), otherCaFile: path.join(dir, 'other.crt'), stop };
  } catch (e) {
    stop();
    throw e;
  }
}
