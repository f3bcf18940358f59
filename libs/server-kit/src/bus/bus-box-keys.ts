import sodium from 'libsodium-wrappers';

// libsodium's crypto_box (X25519 + XSalsa20-Poly1305), reached through its WebAssembly build: a vetted construction
// instead of one composed here (ADR 0066). Its functions exist only once its module has loaded.
let loaded = false;
const loading = sodium.ready.then(() => {
  loaded = true;
});

/** Resolves once sealing can be used; every process awaits it before it sends or takes anything on the bus. */
export function busCryptoReady(): Promise<void> {
  return loading;
}

/** libsodium, loaded; throws when a caller did not await busCryptoReady() first (a bug, never a runtime state). */
export function sodiumLoaded(): typeof sodium {
  if (!loaded) throw new Error('The bus seal is not loaded yet: await busCryptoReady() before sealing or opening');
  return sodium;
}

/**
 * The key the holder of Ed25519 `seed` and the holder of Ed25519 public key `peer` share: both keys as X25519
 * (libsodium's own conversion), then crypto_box's precomputed key. The bus has one key pair per process (D25).
 */
export function boxKeyOf(seed: Uint8Array, peer: Uint8Array): Uint8Array {
  const lib = sodiumLoaded();
  const own = lib.crypto_sign_seed_keypair(seed);
  return lib.crypto_box_beforenm(lib.crypto_sign_ed25519_pk_to_curve25519(peer), lib.crypto_sign_ed25519_sk_to_curve25519(own.privateKey));
}

/** True when `key` (32 bytes) is an Ed25519 public key libsodium can seal for; false for any other 32 bytes. */
export function isBoxKey(key: Uint8Array): boolean {
  try {
    sodiumLoaded().crypto_sign_ed25519_pk_to_curve25519(key);
    return true;
  } catch {
    return false;
  }
}
