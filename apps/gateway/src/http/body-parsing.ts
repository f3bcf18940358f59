import express, { type ErrorRequestHandler, type RequestHandler } from 'express';

const JSON_LIMIT = '1mb';

/** Parses JSON bodies; malformed JSON is a 422 detail list and an oversized body a 413, never a stack trace. */
export function jsonBody(): [RequestHandler, ErrorRequestHandler] {
  const parse = express.json({ limit: JSON_LIMIT });
  const onError: ErrorRequestHandler = (error, _req, res, next) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.parse.failed') {
      res.status(422).json({ detail: [{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }] });
    } else if (type === 'entity.too.large') {
      res.status(413).json({ detail: `Request body is larger than ${JSON_LIMIT}` });
    } else if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
      res.status(415).json({ detail: 'Unsupported request body encoding' });
    } else {
      next(error);
    }
  };
  return [parse, onError];
}
