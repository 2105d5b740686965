// Server passwords kept between launches: encrypted by the operating system through Electron's
// safeStorage in main, and only the ciphertext written to the app's data folder. When the system
// offers no encryption the password is not kept at all (never plain text).
import fs from 'node:fs';
import path from 'node:path';
import type { CredentialOutcome } from '../../shared/contract';
import type { ServerShell } from '../handlers/shell';
import { serverKey, type RecentServers } from './recent-files';

/** The part of Electron's `safeStorage` used here, with its exact shape (main passes the real one). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux: which keyring encrypts; 'basic_text' is a fixed key, no protection, so treated as none. */
  getSelectedStorageBackend?(): string;
}

type ServerRef = { readonly url: string; readonly schema: string; readonly org: string };

export class ServerCredentials {
  constructor(
    private readonly file: string,
    private readonly safeStorage: SafeStorageLike,
  ) {}

  /** Real encryption, not merely some: Linux without a keyring falls back to a fixed key. */
  private canEncrypt(): boolean {
    if (!this.safeStorage.isEncryptionAvailable()) return false;
    return this.safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
  }

  private read(): Record<string, string> {
    try {
      const data: unknown = JSON.parse(fs.readFileSync(this.file, 'utf8'));
      if (typeof data !== 'object' || data === null || Array.isArray(data)) return {};
      return Object.fromEntries(Object.entries(data).filter((e): e is [string, string] => typeof e[1] === 'string'));
    } catch {
      return {}; // missing or damaged: nothing kept
    }
  }

  private write(entries: Record<string, string>): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(entries, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, this.file);
  }

  /** Keeps `password` for `server` (encrypted), or forgets it when null. */
  keep(server: ServerRef, password: string | null): CredentialOutcome {
    const entries = this.read();
    const key = serverKey(server);
    if (password === null || password === '') {
      if (key in entries) {
        delete entries[key];
        this.write(entries);
      }
      return 'not-kept';
    }
    if (!this.canEncrypt()) return 'encryption-unavailable';
    entries[key] = this.safeStorage.encryptString(password).toString('base64');
    this.write(entries);
    return 'kept';
  }

  /** The kept password, or null (none kept, or it can no longer be decrypted). */
  password(server: ServerRef): string | null {
    const cipher = this.read()[serverKey(server)];
    if (cipher === undefined || !this.safeStorage.isEncryptionAvailable()) return null;
    try {
      return this.safeStorage.decryptString(Buffer.from(cipher, 'base64'));
    } catch {
      return null; // keyring changed: the user types it again
    }
  }

  has(server: ServerRef): boolean {
    return serverKey(server) in this.read();
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/** The desktop's server list: recent servers beside recent files, passwords in `credentials`. */
export function serverShell(recent: RecentServers, credentials: ServerCredentials): ServerShell {
  return {
    list: async () => recent.list().map((e) => ({ ...e, hasPassword: credentials.has(e) })),
    async recent(index) {
      const entry = recent.list().find((e) => e.index === index);
      return entry ? { url: entry.url, schema: entry.schema, org: entry.org, password: credentials.password(entry) } : null;
    },
    async remember(server, password) {
      recent.remember(server);
      if (password !== undefined) return credentials.keep(server, password);
      return credentials.has(server) ? 'kept' : 'not-kept';
    },
  };
}
