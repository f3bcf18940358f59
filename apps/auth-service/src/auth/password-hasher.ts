import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';

// OWASP's argon2id baseline (19 MiB, 2 passes): strong, and cheap enough to keep login fast on small hosts.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Hashes and verifies passwords with argon2id. */
@Injectable()
export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** Verifies against the stored hash, or against a dummy one so unknown accounts take as long as known ones. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    this.dummyHash ??= this.hash('dummy password for timing');
    try {
      return await argon2.verify(hash ?? (await this.dummyHash), password);
    } catch {
      return false;
    }
  }
}
