import type { RequestHandler } from 'express';

// The token's shape (UnsubscribeTokenSchema): only a path of this form is redirected, so nothing else reaches the page.
const ONE_CLICK = /^\/api\/unsubscribe\/([a-z0-9-]{1,40}\.[A-Za-z0-9_-]{86})$/;

/**
 * An alert email's List-Unsubscribe address is the API's one-click POST (RFC 8058, ADR 0074). A mail client without
 * one-click opens that address in a browser instead (RFC 2369): a GET there is sent on to the page that asks first,
 * never a JSON 404, and stops nothing by itself.
 */
export function unsubscribeRedirect(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const token = ONE_CLICK.exec(req.path)?.[1];
    if (!token) return next();
    res.redirect(303, `/unsubscribe/${token}`);
  };
}
