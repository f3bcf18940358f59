import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';

/** A verification key with its id (the `kid` in token headers). */
export interface PublicKeyEntry {
  kid: string;
  key: KeyObject;
}

/** The id of a P-256 public key: its RFC 7638 JWK thumbprint (SHA-256, base64url), so no one has to name keys. */
export function keyId(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' }) as { crv: string; kty: string; x: string; y: string };
  const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
  return createHash('sha256').update(canonical).digest('base64url');
}

/** Reads a PEM from an environment value, which may carry `\n` escapes instead of line breaks. */
function pem(value: string): string {
  return value.includes('\\n') ? value.replace(/\\n/g, '\n') : value;
}

/** The signing key (auth-service only): an EC P-256 private key in PEM (PKCS#8 or SEC1). Throws when it is not one. */
export function parsePrivateKey(value: string): KeyObject {
  const key = createPrivateKey(pem(value).trim());
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('must be an EC P-256 private key (ES256)');
  return key;
}

/**
 * The verification keys every process holds: a JWKS document (`{"keys": [...]}`) of EC P-256 public keys. During a
 * rotation it lists the old and the new key; each token names its key by `kid`. Throws on anything else.
 */
export function parsePublicKeys(value: string): PublicKeyEntry[] {
  let document: unknown;
  try {
    document = JSON.parse(value);
  } catch {
    throw new Error('must be a JWKS JSON document ({"keys": [...]})');
  }
  const keys = (document as { keys?: unknown }).keys;
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > 5) throw new Error('must list 1 to 5 keys in "keys"');
  return keys.map((jwk: Record<string, unknown>) => {
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || 'd' in jwk) throw new Error('every key must be an EC P-256 public key (no private part)');
    const key = createPublicKey({ key: jwk as never, format: 'jwk' });
    const kid = keyId(key);
    if (jwk.kid !== undefined && jwk.kid !== kid) throw new Error(`key "${String(jwk.kid)}" does not match its thumbprint ${kid}`);
    return { kid, key };
  });
}

/** The JWKS document of some public keys (for JWT_PUBLIC_KEYS). */
export function publicKeysDocument(keys: KeyObject[]): string {
  return JSON.stringify({ keys: keys.map((key) => ({ ...(key.export({ format: 'jwk' }) as object), kid: keyId(key), use: 'sig', alg: 'ES256' })) });
}

/** A fresh signing key pair as environment values: JWT_PRIVATE_KEY (PEM) and JWT_PUBLIC_KEYS (JWKS). */
export function generateSigningKeys(): { JWT_PRIVATE_KEY: string; JWT_PUBLIC_KEYS: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return {
    JWT_PRIVATE_KEY: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    JWT_PUBLIC_KEYS: publicKeysDocument([publicKey]),
  };
}
