import { createAction } from '@reduxjs/toolkit';

/** The server refused the stored token (expired, password changed, suspended...): the session is over. */
export const sessionEnded = createAction('session/ended');
