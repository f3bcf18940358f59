import { Injectable } from '@nestjs/common';
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { BusIdentity, type BusSigner } from '@market/server-kit';

// What the sealing key is for, mixed into its derivation so it never equals a key used on the bus (ADR 0084).
const PURPOSE = 'site-market verification credentials v1';
const VERSION = 1;
const KEY_ID = 8;
const IV = 12;
const TAG = 16;

/** The AES-256 key `signer` seals credentials with: its own box key with itself, through HKDF with our purpose. */
function keyOf(signer: BusSigner): Buffer {
  return Buffer.from(hkdfSync('sha256', signer.sharedKey(signer.publicKey), Buffer.alloc(0), PURPOSE, 32));
}

/**
 * Sellers' Stripe keys and Google refresh tokens at rest (ADR 0084): AES-256-GCM under a key derived from this
 * service's own bus signing key (D25), which only listings-service holds, so no other secret is added; the listing and
 * source are authenticated with it, so a sealed key copied onto another listing does not open. During a bus key
 * rotation (BUS_PREVIOUS_SIGNING_KEY) what the previous key sealed still opens, and each refresh seals again with the
 * current one.
 */
@Injectable()
export class CredentialSeal {
  private readonly keys: { id: Buffer; key: Buffer }[];

  constructor(bus: BusIdentity) {
    const signers = [bus.signer, bus.signer.previous].filter((s): s is BusSigner => s !== null);
    this.keys = signers.map((signer) => ({ id: Buffer.from(signer.publicKey.subarray(0, KEY_ID)), key: keyOf(signer) }));
  }

  /** `secret` sealed for the listing and source it belongs to. */
  seal(secret: string, listingId: string, source: string): Buffer {
    const { id, key } = this.keys[0];
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(`${listingId}\n${source}`));
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), id, iv, cipher.getAuthTag(), body]);
  }

  /** The secret, or null when it was sealed under a key this process no longer holds, for another listing, or altered. */
  open(sealed: Buffer, listingId: string, source: string): string | null {
    if (sealed.length < 1 + KEY_ID + IV + TAG || sealed[0] !== VERSION) return null;
    const held = this.keys.find((k) => k.id.equals(sealed.subarray(1, 1 + KEY_ID)));
    if (!held) return null;
    const at = 1 + KEY_ID;
    try {
      const decipher = createDecipheriv('aes-256-gcm', held.key, sealed.subarray(at, at + IV));
      decipher.setAAD(Buffer.from(`${listingId}\n${source}`));
      decipher.setAuthTag(sealed.subarray(at + IV, at + IV + TAG));
      return Buffer.concat([decipher.update(sealed.subarray(at + IV + TAG)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  /** The id of the current key, as sealed credentials begin after their version byte. */
  currentKeyId(): Buffer {
    return this.keys[0].id;
  }

  /** True when `sealed` was sealed with the current key (false: seal it again). */
  isCurrent(sealed: Buffer): boolean {
    return sealed.subarray(1, 1 + KEY_ID).equals(this.keys[0].id);
  }
}
