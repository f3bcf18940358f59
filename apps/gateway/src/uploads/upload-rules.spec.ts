import { contentTypeOfKey } from './upload-rules';

describe('contentTypeOfKey', () => {
  it.each([
    ['12345678-1234-4234-8234-123456789abc.jpg', 'image/jpeg'],
    ['12345678-1234-4234-8234-123456789abc.png', 'image/png'],
    ['12345678-1234-4234-8234-123456789abc.webp', 'image/webp'],
    ['12345678-1234-4234-8234-123456789abc.gif', 'image/gif'],
    ['logo.png', 'image/png'],
  ])('%s is served as %s', (key, type) => {
    expect(contentTypeOfKey(key)).toBe(type);
  });

  it.each(['12345678-1234-4234-8234-123456789abc.svg', '12345678-1234-4234-8234-123456789abc.html', 'notes.txt', '../logo.png'])(
    '%s has no type: it is not a key the server makes',
    (key) => {
      expect(contentTypeOfKey(key)).toBeNull();
    },
  );
});
