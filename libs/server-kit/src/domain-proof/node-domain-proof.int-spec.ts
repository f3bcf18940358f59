import { DomainProofChecker } from './domain-proof.checker';
import { domainProofSettings } from './domain-proof.config';
import { NodeDomainProofLookup } from './node-domain-proof.adapter';
import { startLocalDnsServer, startLocalProofSite, type LocalDnsServer, type LocalProofSite } from '../testing';

describe('NodeDomainProofLookup against a local DNS server and site (ADR 0040)', () => {
  let dns: LocalDnsServer;
  let site: LocalProofSite;
  let checker: DomainProofChecker;
  // What the timeout test waits out; every other check gets a timeout a loaded machine (CI runs suites side by side)
  // cannot overrun, so an answer is never taken for silence.
  const TIMEOUT_MS = 800;
  const PATIENT_MS = 5000;
  let impatient: DomainProofChecker;

  beforeAll(async () => {
    [dns, site] = await Promise.all([startLocalDnsServer(), startLocalProofSite()]);
    const settings = (timeoutMs: number) =>
      domainProofSettings({
        DOMAIN_PROOF_TIMEOUT_MS: timeoutMs,
        DOMAIN_PROOF_DNS_SERVERS: [dns.address],
        DOMAIN_PROOF_HTTP_SCHEME: 'http',
        DOMAIN_PROOF_HTTP_PORT: site.port,
        DOMAIN_PROOF_ALLOW_ADDRESSES: ['127.0.0.1'],
      });
    checker = new DomainProofChecker(new NodeDomainProofLookup(settings(PATIENT_MS)), { ms: PATIENT_MS });
    impatient = new DomainProofChecker(new NodeDomainProofLookup(settings(TIMEOUT_MS)), { ms: TIMEOUT_MS });
  });
  afterAll(async () => {
    await Promise.all([dns?.close(), site?.close()]);
  });

  it('finds the token in a TXT record among others', async () => {
    dns.set('txt.example.test', { txt: ['v=spf1 -all', 'site-market-verification=tok-1'], a: ['127.0.0.1'] });
    expect(await checker.check('txt.example.test', 'tok-1')).toEqual({ verified: true, method: 'dns' });
  });

  it('finds the token in the well-known file, and names another token as such', async () => {
    dns.set('file.example.test', { a: ['127.0.0.1'] });
    site.set('file.example.test', { body: 'site-market-verification=tok-2\n' });
    expect(await checker.check('file.example.test', 'tok-2')).toEqual({ verified: true, method: 'file' });
    const other = await checker.check('file.example.test', 'tok-3');
    expect(other).toMatchObject({ verified: false, reason: 'other_token' });
    expect(other.verified === false && other.detail).toContain('"tok-3"');
  });

  it('follows a redirect to a public-or-allowed host, and refuses one to a private or link-local address before connecting', async () => {
    dns.set('moved.example.test', { a: ['127.0.0.1'] });
    dns.set('www.moved.example.test', { a: ['127.0.0.1'] });
    site.set('moved.example.test', { redirect: `http://www.moved.example.test:${site.port}/.well-known/site-market-verification.txt` });
    site.set('www.moved.example.test', { body: 'tok-4' });
    expect(await checker.check('moved.example.test', 'tok-4')).toEqual({ verified: true, method: 'file' });

    dns.set('metadata.example.test', { a: ['127.0.0.1'] });
    site.set('metadata.example.test', { redirect: 'http://169.254.169.254/latest/meta-data/' });
    expect(await checker.check('metadata.example.test', 'tok-5')).toMatchObject({ verified: false, reason: 'not_public' });

    dns.set('inside.example.test', { a: ['127.0.0.1'] });
    dns.set('intranet.example.test', { a: ['10.20.30.40'] });
    site.set('inside.example.test', { redirect: `http://intranet.example.test:${site.port}/.well-known/site-market-verification.txt` });
    const refused = await checker.check('inside.example.test', 'tok-6');
    expect(refused).toMatchObject({ verified: false, reason: 'not_public' });
    expect(refused.verified === false && refused.detail).toContain('10.20.30.40');
    expect(site.requests).not.toContain('intranet.example.test');
  });

  it('refuses a domain whose own address is loopback when no test config allows it', async () => {
    const strict = new DomainProofChecker(
      new NodeDomainProofLookup(domainProofSettings({ DOMAIN_PROOF_TIMEOUT_MS: PATIENT_MS, DOMAIN_PROOF_DNS_SERVERS: [dns.address], DOMAIN_PROOF_HTTP_SCHEME: 'http', DOMAIN_PROOF_HTTP_PORT: site.port })),
      { ms: PATIENT_MS },
    );
    dns.set('loop.example.test', { a: ['127.0.0.1'] });
    site.set('loop.example.test', { body: 'tok-7' });
    expect(await strict.check('loop.example.test', 'tok-7')).toMatchObject({ verified: false, reason: 'not_public' });
  });

  it('answers a silent domain or a hanging site within the timeout', async () => {
    dns.set('silent.example.test', { silent: true });
    let started = Date.now();
    expect(await impatient.check('silent.example.test', 'tok-8')).toMatchObject({ verified: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700);

    dns.set('slow.example.test', { a: ['127.0.0.1'] });
    site.set('slow.example.test', { hangMs: 10_000 });
    started = Date.now();
    expect(await impatient.check('slow.example.test', 'tok-9')).toMatchObject({ verified: false, reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 700);
  });

  it('reads no more than 4 KiB and says plainly when nothing matches or the domain does not exist', async () => {
    dns.set('big.example.test', { a: ['127.0.0.1'] });
    site.set('big.example.test', { body: `${'x'.repeat(5000)}\ntok-10` });
    expect(await checker.check('big.example.test', 'tok-10')).toMatchObject({ verified: false, reason: 'not_found' });
    const missing = await checker.check('nowhere.example.test', 'tok-11');
    expect(missing).toMatchObject({ verified: false, reason: 'not_found' });
    expect(missing.verified === false && missing.detail).toContain('does not exist');
  });

  it('refuses the test-only settings in production', () => {
    expect(() => domainProofSettings({ NODE_ENV: 'production', DOMAIN_PROOF_ALLOW_ADDRESSES: ['127.0.0.1'] })).toThrow(/DOMAIN_PROOF_ALLOW_ADDRESSES/);
    expect(() => domainProofSettings({ NODE_ENV: 'production', DOMAIN_PROOF_HTTP_SCHEME: 'http' })).toThrow(/DOMAIN_PROOF_HTTP_SCHEME/);
    expect(domainProofSettings({ NODE_ENV: 'production' })).toMatchObject({ scheme: 'https', port: null, dnsServers: null, allowAddresses: [] });
  });
});
