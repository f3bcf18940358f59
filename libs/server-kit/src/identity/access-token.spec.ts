import { createPublicKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '../errors/app-error';
import { AccessTokenSigner, AccessTokenVerifier } from './access-token';
import { generateSigningKeys, keyId, parsePrivateKey, parsePublicKeys, publicKeysDocument } from './jwt-keys';

const pair = () => {
  const env = generateSigningKeys();
  const privateKey = parsePrivateKey(env.JWT_PRIVATE_KEY);
  return { env, privateKey, publicKey: createPublicKey(privateKey) };
};

/** The status a verification refused with (a failure when it accepted). */
function refusal(run: () => unknown): number {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error.status;
    throw error;
  }
  throw new Error('accepted');
}

describe('signing keys', () => {
  it('name each key by its thumbprint and read PEM with \\n escapes, as an environment may carry it', () => {
    const { env, publicKey } = pair();
    expect(parsePublicKeys(env.JWT_PUBLIC_KEYS)).toEqual([{ kid: keyId(publicKey), key: expect.anything() }]);
    expect(() => parsePrivateKey(env.JWT_PRIVATE_KEY.replace(/\n/g, '\\n'))).not.toThrow();
  });

  it('refuse anything but EC P-256 public keys, an empty or long list, and a kid that is not the thumbprint', () => {
    const { publicKey } = pair();
    const jwk = publicKey.export({ format: 'jwk' });
    expect(() => parsePublicKeys('not json')).toThrow(/JWKS/);
    expect(() => parsePublicKeys('{"keys": []}')).toThrow(/1 to 5/);
    expect(() => parsePublicKeys(JSON.stringify({ keys: Array(6).fill(jwk) }))).toThrow(/1 to 5/);
    expect(() => parsePublicKeys(JSON.stringify({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }))).toThrow(/EC P-256/);
    expect(() => parsePublicKeys(JSON.stringify({ keys: [{ ...jwk, kid: 'mine' }] }))).toThrow(/thumbprint/);
    const privateJwk = parsePrivateKey(generateSigningKeys().JWT_PRIVATE_KEY).export({ format: 'jwk' });
    expect(() => parsePublicKeys(JSON.stringify({ keys: [privateJwk] }))).toThrow(/no private part/);
    expect(() => parsePrivateKey('-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----')).toThrow();
  });
});

describe('access tokens', () => {
  const current = pair();
  const next = pair();
  const verifier = new AccessTokenVerifier(parsePublicKeys(publicKeysDocument([current.publicKey, next.publicKey])));
  const claims = { sub: 'user-1', sid: 'session-1', ver: 3 };

  it('verify tokens of either listed key (a rotation), with their claims', () => {
    for (const { privateKey, publicKey } of [current, next]) {
      const token = new AccessTokenSigner(privateKey, publicKey).sign(claims, 60);
      expect(verifier.verify(token)).toMatchObject(claims);
      expect(jwt.decode(token, { complete: true })?.header).toMatchObject({ alg: 'ES256', kid: keyId(publicKey) });
    }
  });

  it('refuse with 401 a token of another key, another algorithm, no signature, expired, or missing a claim', () => {
    const stranger = pair();
    const kid = keyId(current.publicKey);
    const forged = [
      new AccessTokenSigner(stranger.privateKey, stranger.publicKey).sign(claims, 60),
      jwt.sign({ sid: 'session-1', ver: 3 }, stranger.privateKey, { algorithm: 'ES256', subject: 'user-1', keyid: kid, expiresIn: 60 }),
      jwt.sign({ sid: 'session-1', ver: 3 }, current.env.JWT_PUBLIC_KEYS, { algorithm: 'HS256', subject: 'user-1', keyid: kid, expiresIn: 60 }),
      `${Buffer.from(JSON.stringify({ alg: 'none', kid })).toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims, exp: 9e9 })).toString('base64url')}.`,
      jwt.sign({ sid: 'session-1', ver: 3, exp: Math.floor(Date.now() / 1000) - 5 }, current.privateKey, { algorithm: 'ES256', subject: 'user-1', keyid: kid }),
      jwt.sign({ ver: 3 }, current.privateKey, { algorithm: 'ES256', subject: 'user-1', keyid: kid, expiresIn: 60 }),
      'garbage',
      // A header that decodes and a payload that is not JSON: the decoder throws, which must still be a 401.
      `${Buffer.from('{"typ":"JWT","alg":"ES256"}').toString('base64url')}.${Buffer.from('not json').toString('base64url')}.sig`,
    ];
    for (const token of forged) expect(refusal(() => verifier.verify(token))).toBe(401);
  });
});
