import { BusKeys, BusSigner, generateBusKeyPair, generateBusKeys, parseBusPublicKeys, parseBusSigningKey } from './bus-keys';
import { busCryptoReady } from './bus-box-keys';
import { CLOCK_SKEW_MS, MAX_REQUEST_LIFETIME_MS, openReply, sealReply, sealRequest, takeRequest } from './bus-requests';
import { sealFor } from './bus-sealing';

const keys = generateBusKeys();
const publicKeys = new BusKeys(parseBusPublicKeys(keys.publicKeys));
const signer = (party: keyof typeof keys.signingKeys, seed = keys.signingKeys[party]) => new BusSigner(party, parseBusSigningKey(seed));
const packet = new TextEncoder().encode('{"pattern":"auth.login","data":{"meta":{},"data":{"password":"hunter2"}},"id":"1"}');
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const NOW = 1_800_000_000_000;
const subject = 'rpc_x.auth.login';
const inbox = '_INBOX.gw.1';

describe('sealed requests (ADR 0066)', () => {
  beforeAll(() => busCryptoReady());
  const sealed = (by = signer('gateway'), on = subject, reply = inbox, expires = NOW + 5000) => sealRequest(by, publicKeys, 'auth-service', on, reply, expires, packet);
  const take = (bytes: Uint8Array, now = NOW, on = subject, reply = inbox, by = signer('auth-service')) => takeRequest(by, publicKeys, on, reply, bytes, now);

  it('is taken by its subject\'s owner from the process that sealed it, until its expiry, and reads as nothing on the wire', () => {
    const request = sealed();
    expect(Buffer.from(request.bytes).includes(Buffer.from('hunter2'))).toBe(false);
    const taken = take(request.bytes);
    expect(taken).toMatchObject({ sender: 'gateway', nonce: request.nonce, expiresAt: NOW + 5000 + CLOCK_SKEW_MS });
    expect(text((taken as { packet: Uint8Array }).packet)).toBe(text(packet));
    // Two seals of one packet never share a nonce: a replay guard tells them apart.
    expect(sealed().nonce).not.toBe(request.nonce);
  });

  it('is refused on another subject, with its answer sent elsewhere, expired, too long-lived, in clear, or altered', () => {
    const request = sealed();
    expect(take(request.bytes, NOW, 'rpc_x.auth.register')).toEqual({ problem: 'sealed for another subject or answer' });
    expect(take(request.bytes, NOW, subject, '_INBOX.attacker.1')).toEqual({ problem: 'sealed for another subject or answer' });
    // Out of time but genuine: refused, with what its sender can be told the refusal through.
    expect(take(request.bytes, NOW + 5000 + CLOCK_SKEW_MS - 1)).toMatchObject({ sender: 'gateway' });
    // At its last millisecond too: the replay guard forgets its nonce at that very moment.
    expect(take(request.bytes, NOW + 5000 + CLOCK_SKEW_MS)).toEqual({ problem: 'expired', refused: expect.objectContaining({ sender: 'gateway', nonce: request.nonce }) });
    expect(take(sealed(signer('gateway'), subject, inbox, NOW + MAX_REQUEST_LIFETIME_MS + CLOCK_SKEW_MS + 1).bytes)).toMatchObject({ problem: 'valid for too long', refused: { sender: 'gateway' } });
    expect(take(packet)).toEqual({ problem: 'not sealed for auth-service by a process of the bus' });
    for (const at of [1, 20, request.bytes.length - 1]) {
      const altered = Uint8Array.from(request.bytes);
      altered[at] ^= 1;
      expect(take(altered)).toEqual({ problem: 'not sealed for auth-service by a process of the bus' });
    }
    // Another service's key cannot open it, nor can a key of another key set seal one that opens.
    expect(take(request.bytes, NOW, subject, inbox, signer('billing-service'))).toEqual({ problem: 'not sealed for billing-service by a process of the bus' });
    const stranger = new BusSigner('gateway', parseBusSigningKey(generateBusKeys().signingKeys.gateway));
    expect(() => take(sealed(stranger).bytes)).not.toThrow();
    expect(take(sealed(stranger).bytes)).toEqual({ problem: 'not sealed for auth-service by a process of the bus' });
  });

  it('is refused when its frame names another sender than the key that sealed it, or is no request', () => {
    // A process's seal with another's name in its frame: the key decides who sent it.
    const lying = sealFor(signer('listings-service'), publicKeys, 'auth-service', new TextEncoder().encode(`market-bus-2 request\ngateway\n${subject}\n${inbox}\n${NOW + 5000}\n{}`));
    expect(take(lying)).toEqual({ problem: 'sealed by listings-service in the name of gateway' });
    // auth-service's answer to the gateway, sent back to auth-service: the pair's key opens it, its frame refuses it.
    const answer = sealReply(signer('auth-service'), publicKeys, 'gateway', publicKeys.listed('gateway')[0], inbox, sealed().nonce, packet);
    expect(take(answer, NOW, subject, inbox, signer('gateway'))).toEqual({ problem: 'not a request' });
  });
});

describe('sealed replies (ADR 0066)', () => {
  beforeAll(() => busCryptoReady());

  it("takes only the owner's answer for this inbox and this request, sealed for the key that asked", () => {
    const gateway = signer('gateway');
    const request = sealRequest(gateway, publicKeys, 'auth-service', subject, inbox, NOW + 5000, packet);
    const taken = takeRequest(signer('auth-service'), publicKeys, subject, inbox, request.bytes, NOW);
    if ('problem' in taken) throw new Error(taken.problem);
    const answer = sealReply(signer('auth-service'), publicKeys, taken.sender, taken.senderKey, inbox, taken.nonce, packet);
    expect(text(openReply(gateway, publicKeys, 'auth-service', inbox, request.nonce, answer)!)).toBe(text(packet));
    expect(openReply(gateway, publicKeys, 'auth-service', '_INBOX.gw.2', request.nonce, answer)).toBeNull();
    // The owner's genuine answer to another request (one an attacker sent with this inbox as its reply subject).
    expect(openReply(gateway, publicKeys, 'auth-service', inbox, 'another-request', answer)).toBeNull();
    // Sealed by a real process that does not answer the subject, or sent in clear.
    const spoof = sealReply(signer('billing-service'), publicKeys, 'gateway', taken.senderKey, inbox, request.nonce, packet);
    expect(openReply(gateway, publicKeys, 'auth-service', inbox, request.nonce, spoof)).toBeNull();
    expect(openReply(gateway, publicKeys, 'auth-service', inbox, request.nonce, packet)).toBeNull();
    // The gateway's own request sent back to it as an answer: the pair's key opens it, its frame refuses it.
    expect(openReply(gateway, publicKeys, 'auth-service', inbox, request.nonce, request.bytes)).toBeNull();
    const altered = Uint8Array.from(answer);
    altered[answer.length - 1] ^= 1;
    expect(openReply(gateway, publicKeys, 'auth-service', inbox, request.nonce, altered)).toBeNull();
  });

  it('frames but never seals when the checks are off (a benchmark)', () => {
    const off = new BusKeys(parseBusPublicKeys(keys.publicKeys), false);
    const gateway = new BusSigner('gateway', parseBusSigningKey(keys.signingKeys.gateway), false);
    const auth = new BusSigner('auth-service', parseBusSigningKey(keys.signingKeys['auth-service']), false);
    const request = sealRequest(gateway, off, 'auth-service', subject, inbox, NOW + 5000, packet);
    expect(text(request.bytes)).toContain('hunter2');
    const taken = takeRequest(auth, off, subject, inbox, request.bytes, NOW);
    expect(taken).toMatchObject({ sender: 'gateway' });
    if ('problem' in taken) throw new Error(taken.problem);
    const answer = sealReply(auth, off, taken.sender, taken.senderKey, inbox, taken.nonce, packet);
    expect(text(openReply(gateway, off, 'auth-service', inbox, request.nonce, answer)!)).toBe(text(packet));
  });
});

describe('a key rotated out (ADR 0068)', () => {
  beforeAll(() => busCryptoReady());

  it('opens no request sealed with it in anyone\'s name once it is no longer listed, though it is kept to read old events', () => {
    const fresh = generateBusKeyPair();
    const listed = JSON.parse(keys.publicKeys) as Record<string, string[]>;
    const old = signer('auth-service');
    const previous = new BusSigner('auth-service', parseBusSigningKey(keys.signingKeys['auth-service']));
    const auth = new BusSigner('auth-service', parseBusSigningKey(fresh.signingKey), true, previous);
    const gatewayKey = publicKeys.listed('gateway')[0];
    // Whoever stole the old key seals as the gateway: the gateway's id as sender, the pair key of the old key and the
    // gateway's, a wrap for the old key.
    const forger = { checks: true, publicKey: gatewayKey, sharedKey: () => old.sharedKey(gatewayKey) } as unknown as BusSigner;
    const frame = new TextEncoder().encode(`market-bus-2 request\ngateway\n${subject}\n${inbox}\n${NOW + 5000}\n{}`);
    const forged = sealFor(forger, publicKeys, 'auth-service', frame, publicKeys.listed('auth-service')[0]);
    // Both keys listed (mid-rotation): the old key is still the service's, and a seal for it opens.
    const rotating = new BusKeys(parseBusPublicKeys(JSON.stringify({ ...listed, 'auth-service': [...listed['auth-service'], fresh.publicKey] })));
    expect(takeRequest(auth, rotating, subject, inbox, forged, NOW)).toMatchObject({ sender: 'gateway' });
    const after = new BusKeys(parseBusPublicKeys(JSON.stringify({ ...listed, 'auth-service': [fresh.publicKey] })));
    expect(takeRequest(auth, after, subject, inbox, forged, NOW)).toEqual({ problem: 'not sealed for auth-service by a process of the bus' });
  });
});
