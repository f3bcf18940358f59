import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { API, type RouteDefinition } from '@market/contracts';

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
    if (type === 'entity.parse.failed') {
      res.status(422).json({ detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }] });
    } else if (type === 'entity.too.large') {
      res.status(413).json({ detail: `Request body is larger than ${isRawPath(req.path) ? RAW_LIMIT : JSON_LIMIT}` });
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      res.status(415).json({ detail: 'Unsupported request body encoding' });
    } else {
      next(error);
    }
  };
  return [parse, onError];
}
