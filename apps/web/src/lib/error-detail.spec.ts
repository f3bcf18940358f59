import { errorDetail } from './error-detail';

describe('errorDetail', () => {
  it('returns a string detail as is', () => {
    expect(errorDetail({ status: 401, data: { detail: 'Incorrect username/email or password' } }, 'Login failed')).toBe(
      'Incorrect username/email or password',
    );
  });
  it('joins a validation list', () => {
    const error = { status: 422, data: { detail: [{ loc: ['body', 'email'], msg: 'Enter a valid email address' }, { msg: 'Too short' }] } };
    expect(errorDetail(error, 'Registration failed')).toBe('Enter a valid email address, Too short');
  });
  it('falls back when there is no detail', () => {
    expect(errorDetail({ status: 'FETCH_ERROR', error: 'TypeError' }, 'Login failed')).toBe('Login failed');
    expect(errorDetail(undefined, 'Login failed')).toBe('Login failed');
    expect(errorDetail({ data: { detail: '  ' } }, 'Login failed')).toBe('Login failed');
  });
});

describe('errorDetail with locations', () => {
  it('writes list entries as field: message when asked', () => {
    const error = { status: 422, data: { detail: [{ loc: ['body', 'title'], msg: 'Too short' }, { loc: ['body'], msg: 'Bad body' }, { msg: 'Other' }] } };
    expect(errorDetail(error, 'Failed', { withLocation: true })).toBe('title: Too short, Bad body, Other');
  });
});
