import { isPublicAddress } from './public-address';

describe('isPublicAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and reserved addresses of both families', () => {
    for (const address of [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1',
      '[::1]', 'fe80::1%eth0', 'not-an-ip',
    ]) {
      expect([address, isPublicAddress(address)]).toEqual([address, false]);
    }
  });

  it('accepts public addresses', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect([address, isPublicAddress(address)]).toEqual([address, true]);
    }
  });
});
