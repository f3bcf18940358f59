import { AppError } from '@market/server-kit';
import { isStoredTime, readCursor } from './audit-log.presenter';

const ID = '6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b';
const cursorOf = (at: unknown, id: unknown = ID) => Buffer.from(JSON.stringify([at, id])).toString('base64url');

/** The 422 a cursor is refused with, or a failure when it was read. */
function refusal(cursor: string): { status: number; detail: unknown } {
  try {
    readCursor(cursor);
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, detail: error.detail };
    throw error;
  }
  throw new Error('the cursor was read, not refused');
}

describe('audit cursors (ADR 0032)', () => {
  it.each([
    '2026-11-25 10:00:00.123456+00',
    '2026-11-25 10:00:00+00',
    '2024-02-29 23:59:59.5+05:30',
    '2026-01-01 00:00:00.000001-09:30:15',
    '0001-01-01 00:00:00+00',
  ])('reads back a time PostgreSQL writes: %s', (at) => {
    expect(isStoredTime(at)).toBe(true);
    expect(readCursor(cursorOf(at))).toEqual({ at, id: ID });
  });

  it.each([
    '2026-99-99 99:99:99+00',
    '2026-02-30 10:00:00+00',
    '2025-02-29 10:00:00+00',
    '2026-13-01 10:00:00+00',
    '2026-11-25 24:00:00+00',
    '2026-11-25 10:60:00+00',
    '2026-11-25 10:00:60+00',
    '0000-01-01 00:00:00+00',
    '2026-11-25 10:00:00+16',
    '2026-11-25 10:00:00+05:60',
    '2026-11-25T10:00:00Z',
    '2026-11-25 10:00:00',
  ])('refuses a cursor naming %s with a 422, so it never reaches the ::timestamptz cast', (at) => {
    expect(isStoredTime(at)).toBe(false);
    expect(refusal(cursorOf(at))).toEqual({ status: 422, detail: [{ loc: ['query', 'cursor'], msg: 'Not a cursor this list handed out', type: 'cursor' }] });
  });

  it('refuses what is not a cursor at all', () => {
    for (const cursor of ['not-a-cursor', cursorOf('2026-11-25 10:00:00+00', 'not-an-id'), cursorOf(12), Buffer.from('{}').toString('base64url')]) {
      expect(refusal(cursor).status).toBe(422);
    }
  });
});
