import { Inject, Injectable, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { ListingsConfig } from '../listings.config';
import { CredentialSeal } from './credential-seal';
import { VerificationRepository } from './verification.repository';
import { VerificationRefresher } from './verification-refresher';
import { VerificationRefreshJobs } from './verification-refresh.jobs';
import { VerifiedFiguresService } from './verified-figures.service';
import { REVENUE_READER, TRAFFIC_READER, type RevenueReader, type TrafficReader } from './providers/verification-sources.port';
import { StripeRevenueReader } from './providers/stripe-revenue.reader';
import { Ga4TrafficReader } from './providers/ga4-traffic.reader';
import { startVerificationSandbox, type VerificationSandbox } from './sandbox/verification-sandbox';

const SANDBOX = Symbol('VERIFICATION_SANDBOX');

/** Stops the sandbox's stand-ins with the service. */
@Injectable()
class SandboxLifetime implements OnApplicationShutdown {
  constructor(@Inject(SANDBOX) private readonly sandbox: VerificationSandbox | null) {}

  async onApplicationShutdown() {
    await this.sandbox?.stop();
  }
}

/** The Stripe reader: the operator's (STRIPE_VERIFICATION=on), else the sandbox's, else none ("not set up here"). */
function revenueReader(config: Partial<ListingsConfig>, sandbox: VerificationSandbox | null, timeoutMs: number): RevenueReader | null {
  if (config.STRIPE_VERIFICATION === 'on') {
    return new StripeRevenueReader({ host: config.STRIPE_API_HOST, port: config.STRIPE_API_PORT, protocol: config.STRIPE_API_PROTOCOL, timeoutMs });
  }
  return sandbox ? new StripeRevenueReader({ ...sandbox.stripe, timeoutMs }) : null;
}

/** The GA4 reader: the operator's Google OAuth client, else the sandbox's, else none. */
function trafficReader(config: Partial<ListingsConfig>, sandbox: VerificationSandbox | null, timeoutMs: number): TrafficReader | null {
  if (config.GOOGLE_OAUTH_CLIENT_ID && config.GOOGLE_OAUTH_CLIENT_SECRET) {
    return new Ga4TrafficReader({
      clientId: config.GOOGLE_OAUTH_CLIENT_ID,
      clientSecret: config.GOOGLE_OAUTH_CLIENT_SECRET,
      authorizeUrl: config.GOOGLE_OAUTH_AUTHORIZE_URL,
      tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
      revokeUrl: config.GOOGLE_OAUTH_REVOKE_URL,
      dataApiEndpoint: config.GA4_DATA_API_URL,
      timeoutMs,
    });
  }
  if (!sandbox) return null;
  return new Ga4TrafficReader({ clientId: sandbox.google.client.id, clientSecret: sandbox.google.client.secret, ...sandbox.google.endpoints, timeoutMs });
}

/**
 * Verified figures' providers (ADR 0084): the readers are the official SDKs' adapters, present only when their
 * provider is set up here (Stripe: STRIPE_VERIFICATION=on; GA4: a Google OAuth client) or the sandbox runs.
 */
export function verificationProviders(config: Partial<ListingsConfig>): Provider[] {
  const timeoutMs = config.VERIFICATION_TIMEOUT_MS ?? 10_000;
  return [
    { provide: SANDBOX, useFactory: () => (config.VERIFICATION_SANDBOX === 'on' ? startVerificationSandbox() : null) },
    SandboxLifetime,
    { provide: REVENUE_READER, useFactory: (sandbox: VerificationSandbox | null) => revenueReader(config, sandbox, timeoutMs), inject: [SANDBOX] },
    { provide: TRAFFIC_READER, useFactory: (sandbox: VerificationSandbox | null) => trafficReader(config, sandbox, timeoutMs), inject: [SANDBOX] },
    CredentialSeal,
    VerificationRepository,
    VerificationRefresher,
    VerificationRefreshJobs,
    VerifiedFiguresService,
  ];
}
