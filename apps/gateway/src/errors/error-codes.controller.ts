import { Controller, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { API, errorCodeInfo, errorCodeList } from '@market/contracts';
import { notFound } from '@market/server-kit';
import { Route } from '../http/route.decorator';

/** Where a problem body's `type` leads (ADR 0079): the code list is contracts' own, so no service is asked. */
@Controller()
export class ErrorCodesController {
  @Route(API.errors.list)
  list(@Res({ passthrough: true }) response: Response) {
    response.setHeader('Cache-Control', 'public, max-age=3600');
    return { errors: errorCodeList() };
  }

  @Route(API.errors.get)
  get(@Param('code') code: string, @Res({ passthrough: true }) response: Response) {
    const info = errorCodeInfo(code);
    if (!info) throw notFound(`No error code ${code}`);
    response.setHeader('Cache-Control', 'public, max-age=3600');
    return info;
  }
}
