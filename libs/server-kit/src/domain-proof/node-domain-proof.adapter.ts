import { Resolver } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { OWNERSHIP_FILE_MAX_BYTES, OWNERSHIP_FILE_PATH } from '@market/domain';
import type { DomainProofLookup, FileLookup, LookupFailure, TxtLookup } from './domain-proof.port';
import type { DomainProofSettings } from './domain-proof.config';
import { isPublicAddress } from './public-address';

const MAX_REDIRECTS = 3;

/** A failure carried through the HTTP client's callbacks. */
class LookupStop extends Error {
  constructor(readonly result: LookupFailure) {
    super(result.failure);
  }
}

/**
 * The production DomainProofLookup (ADR 0040): Node's DNS resolver (one try, the deadline's timeout) for TXT records
 * and for the addresses the HTTP client connects to, and an HTTP client that resolves a host itself, refuses it when any
 * address is not public (so a redirect or a DNS answer cannot steer us at loopback, the private network or the cloud
 * metadata address), follows at most three redirects, and reads at most 4 KiB.
 */
export class NodeDomainProofLookup implements DomainProofLookup {
  private readonly allowed: Set<string>;

  constructor(private readonly settings: DomainProofSettings) {
    this.allowed = new Set(settings.allowAddresses);
  }

  /** TXT records through the resolver; a domain without any is an empty list. */
  async txt(domain: string, signal: AbortSignal): Promise<TxtLookup> {
    const resolver = this.resolver();
    const cancel = () => resolver.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      return { records: await resolver.resolveTxt(domain) };
    } catch (error) {
      // The domain exists but has no TXT record: nothing to match, which is no failure of the lookup.
      if ((error as { code?: string }).code === 'ENODATA') return { records: [] };
      return dnsFailure(error, signal);
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  /** The well-known file over HTTPS (tests: the configured scheme and port), following safe redirects only. */
  async wellKnownFile(domain: string, signal: AbortSignal): Promise<FileLookup> {
    const port = this.settings.port ? `:${this.settings.port}` : '';
    let url = new URL(`${this.settings.scheme}://${domain}${port}${OWNERSHIP_FILE_PATH}`);
    try {
      for (let hop = 0; ; hop += 1) {
        const response = await this.get(url, signal);
        const location = response.headers.location;
        if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
          response.resume();
          if (hop >= MAX_REDIRECTS) return { failure: 'unreachable', reason: 'too many redirects' };
          url = new URL(location, url);
          if (url.protocol !== 'https:' && url.protocol !== 'http:') return { failure: 'unreachable', reason: `a redirect to ${url.protocol}` };
          continue;
        }
        if (response.statusCode !== 200) {
          response.resume();
          return { failure: 'http_status', status: response.statusCode ?? 0 };
        }
        return await readBounded(response);
      }
    } catch (error) {
      if (error instanceof LookupStop) return error.result;
      if (signal.aborted) return { failure: 'timeout' };
      return { failure: 'unreachable', reason: (error as Error).message };
    }
  }

  private get(url: URL, signal: AbortSignal): Promise<IncomingMessage> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // An address in the URL itself never goes through lookup(): check it here.
    if (isIP(host) && !this.permitted(host)) return Promise.reject(new LookupStop({ failure: 'not_public', address: host }));
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const outgoing = request(url, {
        method: 'GET',
        signal,
        lookup: this.guardedLookup(signal),
        headers: { accept: 'text/plain', 'user-agent': 'SiteMarket-Verification/1.0' },
      });
      outgoing.on('response', resolve);
      outgoing.on('error', (error) => reject((error as Error & { cause?: unknown }).cause instanceof LookupStop ? (error as { cause: LookupStop }).cause : error));
      outgoing.end();
    });
  }

  /** net's lookup: the host's addresses from our resolver, every one of them public (or allowed by test config). */
  private guardedLookup(signal: AbortSignal): LookupFunction {
    return (hostname, options, callback) => {
      this.addresses(hostname, signal).then(
        (addresses) => {
          const refused = addresses.find((a) => !this.permitted(a.address));
          if (refused) return callback(new LookupStop({ failure: 'not_public', address: refused.address }), '', 4);
          if (!addresses.length) return callback(new LookupStop({ failure: 'no_domain' }), '', 4);
          if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
          return callback(null, addresses[0].address, addresses[0].family);
        },
        (error) => callback(error instanceof LookupStop ? error : new LookupStop(dnsFailure(error, signal)), '', 4),
      );
    };
  }

  private async addresses(hostname: string, signal: AbortSignal): Promise<Array<{ address: string; family: number }>> {
    const resolver = this.resolver();
    const cancel = () => resolver.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      const found = [
        ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (!found.length && v4.status === 'rejected') throw v4.reason;
      return found;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }

  private permitted(address: string): boolean {
    return isPublicAddress(address) || this.allowed.has(address);
  }

  private resolver(): Resolver {
    const resolver = new Resolver({ timeout: this.settings.timeoutMs, tries: 1 });
    if (this.settings.dnsServers) resolver.setServers(this.settings.dnsServers);
    return resolver;
  }
}

/** A resolver error as a lookup failure: no such domain, the deadline, or anything else. */
function dnsFailure(error: unknown, signal: AbortSignal): LookupFailure {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return { failure: 'no_domain' };
  if (signal.aborted || code === 'ETIMEOUT' || code === 'ECANCELLED') return { failure: 'timeout' };
  return { failure: 'unreachable', reason: code ?? (error as Error).message };
}

/** Reads a body up to the size limit; a longer one is not a proof file and stops being read. */
function readBounded(response: IncomingMessage): Promise<FileLookup> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > OWNERSHIP_FILE_MAX_BYTES) {
        response.destroy();
        resolve({ failure: 'too_large' });
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8') }));
    response.on('error', reject);
  });
}
