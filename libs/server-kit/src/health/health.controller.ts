import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READINESS_CHECKS, runReadiness, type ReadinessCheck } from './readiness';

/** /healthz: the process is alive. /readyz: its PostgreSQL, NATS and Redis answer. */
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[]) {}

  @Get('healthz')
  @HttpCode(200)
  health() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    const result = await runReadiness(this.checks);
    if (!result.ready) {
      res.status(503);
      return { detail: 'Not ready', checks: result.checks };
    }
    return { status: 'ready', checks: result.checks };
  }
}
