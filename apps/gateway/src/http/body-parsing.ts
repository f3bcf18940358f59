import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { API, PROBLEM_MEDIA_TYPE, problemOf, type RouteDefinition, type RpcErrorPayload } from '@market/contracts';

const JSON_LIMIT = '1mb';
// Raw bodies go to billing base64-encoded inside one NATS message (1 MB max payload), so they must stay under ~0.75 MB.
const RAW_LIMIT = '700kb';
/**
 * Routes that get the body's exact bytes (a Buffer) instead of parsed JSON: a signature covers them (ADR 0023). They
 * are the routes whose declaration says `rawBody` (ADR 0028), so moving one cannot silently JSON-parse its body.
 */
export const RAW_BODY_PATHS = Object.values(API)
  .flatMap((group) => Object.values(group) as RouteDefinition[])
  .filter((route) => route.rawBody !== undefined)
  .map((route) => `/api${route.path}`.toLowerCase());

const isRawPath = (path: string) => RAW_BODY_PATHS.includes(path.toLowerCase().replace(/\/+$/, ''));

const KNOWN_ENCODINGS = new Set(['gzip', 'deflate', 'br']);

/** True for a body-parser or zlib failure that says the request was at fault (a 4xx status). */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown; statusCode?: unknown }).status ?? (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Parses JSON bodies, except on RAW_BODY_PATHS, whose bytes are kept as they came; malformed JSON is a 422 detail list
 * and an oversized body a 413, never a stack trace.
 */
export function jsonBody(): [RequestHandler, ErrorRequestHandler] {
  const json = express.json({ limit: JSON_LIMIT });
  const raw = express.raw({ type: () => true, limit: RAW_LIMIT });
  const parse: RequestHandler = (req, res, next) => (isRawPath(req.path) ? raw : json)(req, res, next);
  const onError: ErrorRequestHandler = (error, req, res, next) => {
    const type = (error as { type?: string }).type;
    // Before any route runs, so the error filter never sees these: the same problem body, written here (ADR 0079).
    const refuse = (payload: RpcErrorPayload) => res.status(payload.status).type(PROBLEM_MEDIA_TYPE).json(problemOf(payload));
    if (type === 'entity.parse.failed') {
      refuse({ code: 'validation_failed', status: 422, detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }] });
    } else if (type === 'entity.too.large') {
      refuse({ code: 'payload_too_large', status: 413, detail: `Request body is larger than ${isRawPath(req.path) ? RAW_LIMIT : JSON_LIMIT}` });
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      refuse({ code: 'unsupported_media_type', status: 415, detail: 'Unsupported request body encoding' });
    } else if (isClientError(error)) {
      // A body that does not decompress (gzip, deflate or br that is not), or a request cut short: the sender's fault,
      // never a 500 (the zlib error carries a 400 and no type).
      const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
      // Only an encoding the parser knows is named back: the header is the sender's text, of any length.
      refuse({ code: 'bad_request', status: 400, detail: `Request body could not be read${KNOWN_ENCODINGS.has(encoding) ? ` as ${encoding} data` : ''}` });
    } else {
      next(error);
    }
  };
  return [parse, onError];
}
