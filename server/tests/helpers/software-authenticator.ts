import crypto from 'node:crypto';

/**
 * A software WebAuthn authenticator for server tests: an EC P-256 key made with node:crypto, and
 * registration ('none' attestation) and authentication responses built byte by byte as a browser
 * and authenticator would send them (WebAuthn Level 2, §6.1 and §6.5; COSE key in CBOR).
 */

type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;

/** The few CBOR types WebAuthn needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: Cbor): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const out = Buffer.alloc(3);
    out[0] = (major << 5) | 25;
    out.writeUInt16BE(length, 1);
    return out;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

export interface SoftwarePasskey {
  credentialId: string;
  counter: number;
  /** The registration response (navigator.credentials.create(), as JSON) for the given options. */
  register(options: { challenge: string }, where?: { origin?: string; rpId?: string; userVerified?: boolean }): Record<string, unknown>;
  /** An authentication response; the counter moves up by one unless `counter` is given. */
  authenticate(options: { challenge: string }, where?: { origin?: string; rpId?: string; counter?: number }): Record<string, unknown>;
}

export function softwarePasskey(defaults: { origin: string; rpId: string }): SoftwarePasskey {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coseKey = cbor(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]),
  );
  const rawId = crypto.randomBytes(32);
  const userHandle = crypto.randomBytes(16);

  const clientData = (type: string, challenge: string, origin: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  const authData = (rpId: string, flags: number, counter: number, attested?: Buffer) => {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  };

  const passkey: SoftwarePasskey = {
    credentialId: b64url(rawId),
    counter: 0,
    register({ challenge }, where = {}) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(rawId.length);
      const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, coseKey]);
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const flags = 0x01 | (where.userVerified === false ? 0 : 0x04) | 0x40;
      const attestationObject = cbor(
        new Map<string, Cbor>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData(where.rpId ?? defaults.rpId, flags, passkey.counter, attested)],
        ]),
      );
      return {
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', challenge, where.origin ?? defaults.origin)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    authenticate({ challenge }, where = {}) {
      const counter = where.counter ?? passkey.counter + 1;
      if (where.counter === undefined) passkey.counter = counter;
      const data = authData(where.rpId ?? defaults.rpId, 0x01 | 0x04, counter);
      const client = clientData('webauthn.get', challenge, where.origin ?? defaults.origin);
      const signature = crypto.sign('sha256', Buffer.concat([data, sha256(client)]), privateKey);
      return {
        id: passkey.credentialId,
        rawId: passkey.credentialId,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: b64url(userHandle),
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
  return passkey;
}
