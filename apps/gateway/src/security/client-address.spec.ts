import { clientAddressKey } from './client-address';

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:ffff::1', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('puts two addresses of one /64 under one key and another /64 under another', () => {
    expect(clientAddressKey('2001:db8:aa:bb::1')).toBe(clientAddressKey('2001:db8:aa:bb:1234:5678:9abc:def0'));
    expect(clientAddressKey('2001:db8:aa:bc::1')).not.toBe(clientAddressKey('2001:db8:aa:bb::1'));
  });

  it.each([[undefined], [''], ['not an address'], ['999.1.1.1']])('%j has no key', (address) => {
    expect(clientAddressKey(address)).toBeNull();
  });
});
