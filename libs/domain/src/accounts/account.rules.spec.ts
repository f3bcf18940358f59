import { canonicalIdentifier, usernameProblem } from './username.rules';
import { passwordProblem } from './password.rules';
import { postLoginPath } from './login-redirect.rules';

describe('usernameProblem', () => {
  it.each(['abc', 'a_b-c', 'User123', 'x'.repeat(30)])('accepts %s', (name) => {
    expect(usernameProblem(name)).toBeNull();
  });
  it.each([
    ['ab', /3 to 30/],
    ['x'.repeat(31), /3 to 30/],
    ['has space', /letters, digits/],
    ['dot.name', /letters, digits/],
    ['émile', /letters, digits/],
  ])('rejects %s', (name, why) => {
    expect(usernameProblem(name)).toMatch(why);
  });
});

describe('passwordProblem', () => {
  it('accepts a long uncommon password', () => {
    expect(passwordProblem('correct horse battery')).toBeNull();
  });
  it('rejects fewer than 8 characters', () => {
    expect(passwordProblem('Ab1!xyz')).toBe('Password must be at least 8 characters long');
  });
  it('accepts exactly 8 and 128 characters', () => {
    expect(passwordProblem('Zq8!mK2p')).toBeNull();
    expect(passwordProblem('k'.repeat(127) + 'Z')).toBeNull();
  });
  it('rejects more than 128 characters', () => {
    expect(passwordProblem('k'.repeat(129))).toMatch(/at most 128/);
  });
  it('rejects common passwords whatever their case', () => {
    expect(passwordProblem('Password123')).toMatch(/too common/);
    expect(passwordProblem('QWERTYUIOP')).toMatch(/too common/);
  });
});

describe('canonicalIdentifier', () => {
  it('lower-cases and trims', () => {
    expect(canonicalIdentifier('  Alice@Example.COM ')).toBe('alice@example.com');
  });
});

describe('postLoginPath', () => {
  it('prefers the sell wizard when listing data was saved before login', () => {
    expect(postLoginPath('admin', true)).toBe('/sell');
    expect(postLoginPath('regular', true)).toBe('/sell');
  });
  it('sends admins to the dashboard and others home', () => {
    expect(postLoginPath('admin', false)).toBe('/dashboard');
    expect(postLoginPath('regular', false)).toBe('/');
  });
});
