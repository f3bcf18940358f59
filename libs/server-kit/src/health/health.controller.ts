import { Controller, Get, HttpCode, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { READINESS_CHECKS, runReadiness, type ReadinessCheck } from './readiness';
import { ServingState } from './serving-state';

/**
 * /healthz: the process is alive. /readyz: it takes work: not draining, and its required dependencies answer (an
 * optional one down makes it "degraded", still ready; ADR 0050).
 */
@Controller()
export class HealthController {
  constructor(
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
    private readonly serving: ServingState,
  ) {}

  @Get('healthz')
  @HttpCode(200)
  health() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    const result = await runReadiness(this.checks);
    if (this.serving.isDraining) {
      res.status(503);
      return { detail: 'Shutting down', checks: result.checks };
    }
    if (!result.ready) {
      res.status(503);
      return { detail: 'Not ready', checks: result.checks };
    }
    return { status: result.degraded ? 'degraded' : 'ready', checks: result.checks };
  }
}
