import { Controller, Get, Header, Res } from '@nestjs/common';
import type { Response } from 'express';
import { scrapeMetrics } from './registry';

/**
 * GET /metrics in Prometheus text format, on a service's health port (ADR 0048). The gateway never mounts this
 * controller: its health port is the public one, so it serves metrics on METRICS_PORT instead (metrics-server.ts).
 */
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('Cache-Control', 'no-store')
  async metrics(@Res({ passthrough: true }) res: Response): Promise<string> {
    const { body, contentType } = await scrapeMetrics();
    res.type(contentType);
    return body;
  }
}
