// How driver failures become typed errors, on the exact shapes the bridge worker sends for a real
// server's refusals (test/engine/postgres-auth-tls.test.ts meets them live where it can run).
import { describe, expect, it } from 'vitest';
import { toStatelensError, type PgWireError } from './errors';

const WHERE = 'postgres://ana:***@db.example:5432/memory?sslmode=verify-full';
const wire = (e: Partial<PgWireError> & { message: string }): PgWireError => ({ lost: false, ...e });

describe('toStatelensError on a refused connection', () => {
  it('an untrusted certificate or one for another host is PERMISSION_DENIED saying what to change', () => {
    const untrusted = toStatelensError(wire({ message: 'unable to verify the first certificate', errno: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), WHERE);
    expect(untrusted.code).toBe('PERMISSION_DENIED');
    expect(untrusted.message).toMatch(/certificate could not be verified \(unable to verify the first certificate\).*sslrootcert=/);
    expect(untrusted.details).toEqual({ errno: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' });
    expect(toStatelensError(wire({ message: 'self-signed certificate', errno: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), WHERE).code).toBe('PERMISSION_DENIED');

    const host = toStatelensError(
      wire({
        message: "Hostname/IP does not match certificate's altnames: Host: db.example. is not in the cert's altnames: DNS:localhost",
        errno: 'ERR_TLS_CERT_ALTNAME_INVALID',
      }),
      WHERE,
    );
    expect(host).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(/certificate is not for db\.example .*host name the certificate was issued for/),
    });
  });

  it('no TLS on the server, no password given, and an unencrypted connection refused by pg_hba.conf are PERMISSION_DENIED', () => {
    expect(toStatelensError(wire({ message: 'The server does not support SSL connections' }), WHERE)).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(/does not offer TLS/),
    });
    expect(toStatelensError(wire({ message: 'SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string' }), WHERE)).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(/asks for a password and none was given/),
    });
    const hba = toStatelensError(
      wire({ message: 'no pg_hba.conf entry for host "10.0.0.5", user "ana", database "memory", no encryption', sqlstate: '28000' }),
      WHERE,
    );
    expect(hba).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringMatching(/no encryption: .*sslmode=verify-full/),
      details: { sqlstate: '28000' },
    });
  });

  it('leaves a wrong password and an unreachable server as they were', () => {
    const wrong = toStatelensError(wire({ message: 'password authentication failed for user "ana"', sqlstate: '28P01' }), WHERE);
    expect(wrong).toMatchObject({ code: 'PERMISSION_DENIED', message: `PostgreSQL (${WHERE}): password authentication failed for user "ana"` });
    expect(toStatelensError(wire({ message: 'connect ECONNREFUSED 127.0.0.1:1', errno: 'ECONNREFUSED' }), WHERE).code).toBe('DB_UNAVAILABLE');
    expect(toStatelensError(wire({ message: 'some other driver failure' }), WHERE).code).toBe('INTERNAL');
  });
});
