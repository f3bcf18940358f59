import { NATS_PARTIES, type EventParty } from '@market/contracts';
import { BusKeys, BusSigner, busPublicKey, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { ConfigError } from '../config/env';
import { busCryptoReady, isBoxKey } from './bus-box-keys';

/** The bus variables of a process's configuration (commonEnv). */
export interface BusConfig {
  BUS_SIGNING_KEY: string;
  BUS_PUBLIC_KEYS: string;
  BUS_CHECKS?: 'on' | 'off';
  BUS_PREVIOUS_SIGNING_KEY?: string;
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
  const previous = config.BUS_PREVIOUS_SIGNING_KEY ? new BusSigner(party, parseBusSigningKey(config.BUS_PREVIOUS_SIGNING_KEY), checks) : null;
  return new BusIdentity(new BusSigner(party, privateKey, checks, previous), new BusKeys(keys, checks));
}

/**
 * Resolves once every key BUS_PUBLIC_KEYS lists is an Ed25519 public key, or throws a ConfigError naming it: a listed
 * key that is not one would fail every seal for its process, and whoever sent a message naming it (ADR 0066).
 */
export async function checkBusKeys(identity: BusIdentity): Promise<BusIdentity> {
  await busCryptoReady();
  for (const party of NATS_PARTIES) {
    if (identity.keys.listed(party).some((key) => !isBoxKey(key))) throw new ConfigError('BUS_PUBLIC_KEYS', `lists a key of ${party} that is not an Ed25519 public key`);
  }
  return identity;
}
