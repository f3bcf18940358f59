import type { EventParty } from '@market/contracts';
import { BusKeys, BusSigner, busPublicKey, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { ConfigError } from '../config/env';

/** The bus variables of a process's configuration (commonEnv). */
export interface BusConfig {
  BUS_SIGNING_KEY: string;
  BUS_PUBLIC_KEYS: string;
  BUS_CHECKS?: 'on' | 'off';
}

/**
 * A process on the bus (D25): the key it signs with and every process's public keys. A client asks `signerFor` who signs
 * a request; a process always signs as itself, a test's client as any process allowed to call the subject.
 */
export class BusIdentity {
  /** Who signs a request on `subject` (a declared subject, no prefix). */
  readonly signerFor: (subject: string) => BusSigner;

  constructor(
    readonly signer: BusSigner,
    readonly keys: BusKeys,
    chooseSigner: ((subject: string) => BusSigner) | null = null,
  ) {
    this.signerFor = chooseSigner ?? (() => signer);
  }
}

/**
 * The bus identity of `party` from its configuration. Throws when its signing key is not one of the keys
 * BUS_PUBLIC_KEYS lists for it: every process would refuse what it signs.
 */
export function busIdentity(party: EventParty, config: BusConfig, nodeEnv = process.env.NODE_ENV): BusIdentity {
  const privateKey = parseBusSigningKey(config.BUS_SIGNING_KEY);
  const keys = parseBusPublicKeys(config.BUS_PUBLIC_KEYS);
  const own = busPublicKey(privateKey);
  if (!(keys.get(party) ?? []).map(busPublicKey).includes(own)) throw new ConfigError('BUS_SIGNING_KEY', `its public key is not listed for ${party} in BUS_PUBLIC_KEYS`);
  const checks = config.BUS_CHECKS !== 'off';
  if (!checks && nodeEnv !== 'test') throw new ConfigError('BUS_CHECKS', 'may be off only in a benchmark (NODE_ENV=test): it believes anyone on the bus');
  return new BusIdentity(new BusSigner(party, privateKey, checks), new BusKeys(keys, checks));
}
