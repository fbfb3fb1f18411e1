import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type Cbor = Parameters<typeof isoCBOR.encode>[0];

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString('base64url');

/**
 * A software passkey for tests: one ES256 key (node:crypto), 'none' attestation, and a signature counter. It answers
 * the JSON that `@simplewebauthn/browser` would send, for the origin given (the server's base address).
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;

  constructor(readonly origin: string, readonly rpId = new URL(origin).hostname) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  get id(): string { return b64url(this.credentialId); }

  private authData(flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The answer of `navigator.credentials.create` to the server's options (`challenge`). */
  register(options: { challenge: string }, { origin = this.origin, type = 'webauthn.create' } = {}) {
    const cose = isoCBOR.encode(new Map<number, Cbor>([
      [1, 2], [3, -7], [-1, 1], [-2, new Uint8Array(Buffer.from(this.publicJwk.x, 'base64url'))], [-3, new Uint8Array(Buffer.from(this.publicJwk.y, 'base64url'))],
    ]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, Buffer.from(cose)]);
    // User present, user verified, attested credential data.
    const authData = this.authData(0x45, attested);
    const attestationObject = isoCBOR.encode(new Map<string, Cbor>([['fmt', 'none'], ['attStmt', new Map<string, Cbor>()], ['authData', new Uint8Array(authData)]]));
    const clientDataJSON = Buffer.from(JSON.stringify({ type, challenge: options.challenge, origin, crossOrigin: false }));
    return {
      id: this.id, rawId: this.id, type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {}, authenticatorAttachment: 'platform',
    };
  }

  /** The answer of `navigator.credentials.get` to the server's options (`challenge`); the counter moves on by one. */
  authenticate(options: { challenge: string }, { origin = this.origin, counter = this.counter + 1 } = {}) {
    this.counter = counter;
    const authData = this.authData(0x05);
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin, crossOrigin: false }));
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id, rawId: this.id, type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature) },
      clientExtensionResults: {},
    };
  }
}
