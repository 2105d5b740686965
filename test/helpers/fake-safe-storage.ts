// A stand-in for Electron's safeStorage (the real module cannot load under Node): the same
// methods, with a reversible scrambling so tests can tell ciphertext from the password.
import type { SafeStorageLike } from '../../electron/main/server-credentials';

export function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): SafeStorageLike & { encrypted: string[] } {
  const encrypted: string[] = [];
  const flip = (b: Buffer) => Buffer.from(b.map((x) => x ^ 0x5a));
  return {
    encrypted,
    isEncryptionAvailable: () => options.available ?? true,
    encryptString(plainText: string): Buffer {
      if (!(options.available ?? true)) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
      encrypted.push(plainText);
      return Buffer.concat([Buffer.from('v10'), flip(Buffer.from(plainText, 'utf8'))]);
    },
    decryptString(buffer: Buffer): string {
      if (buffer.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      return flip(buffer.subarray(3)).toString('utf8');
    },
    ...(options.backend ? { getSelectedStorageBackend: () => options.backend as string } : {}),
  };
}
