import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API } from '@market/contracts';
import { notFound } from '@market/server-kit';
import { Route } from '../http/route.decorator';
import { ObjectStorage, type StoredObject } from './object-storage';
import { LOGO_KEY, contentTypeOfKey } from './upload-rules';

// apps/gateway/assets: two levels up from both src/uploads (jest) and dist/uploads (node dist/main.js).
export const BUNDLED_LOGO = resolve(__dirname, '../../assets/logo.png');

const IMMUTABLE = 'public, max-age=31536000, immutable';
// The logo's key never changes while its content may, so it is cached for a day only.
const LOGO_CACHE = 'public, max-age=86400';

async function bundledLogo(): Promise<StoredObject | null> {
  try {
    const { size } = await stat(BUNDLED_LOGO);
    return { stream: createReadStream(BUNDLED_LOGO), contentType: 'image/png', size };
  } catch {
    return null;
  }
}

/**
 * /api/uploads/{key}: stored screenshots (and the site logo), served with the type their server-made key's
 * extension names; whatever type the bucket holds is ignored, so an object put there by other means cannot
 * become HTML on our origin (ADR 0029).
 */
@Controller()
export class UploadsController {
  constructor(private readonly storage: ObjectStorage) {}

  @Route(API.uploads.get)
  async get(@Param('key') key: string, @Res() res: Response): Promise<void> {
    // Only keys the server generates are looked up: no traversal, no guessing at other names.
    const contentType = contentTypeOfKey(key);
    if (!contentType) throw notFound('File not found');
    const object = (await this.storage.get(key)) ?? (key === LOGO_KEY ? await bundledLogo() : null);
    if (!object) throw notFound('File not found');
    res.setHeader('Content-Type', contentType);
    res.setHeader('Content-Length', String(object.size));
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', key === LOGO_KEY ? LOGO_CACHE : IMMUTABLE);
    try {
      await pipeline(object.stream, res);
    } catch (error) {
      object.stream.destroy();
      if (!res.headersSent) throw error;
      res.destroy();
    }
  }
}
