import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { AllErrorsFilter, checkSubjectSpaces, initProcessMetrics, JsonLogger } from '@market/server-kit';
import type { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { requestContext } from './http/request-context.middleware';
import { httpMetrics } from './http/http-metrics.middleware';
import { jsonBody } from './http/body-parsing';
import { securityHeaders } from './http/security-headers';
import { webApp } from './http/web-app';
import { PageRenderer } from './site/page-renderer';
import { apiDocument } from '@market/contracts';
import { unsubscribeRedirect } from './http/unsubscribe-redirect';

/** Builds the gateway application (not yet listening). */
export async function createGateway(config: GatewayConfig): Promise<NestExpressApplication> {
  checkSubjectSpaces(config);
  initProcessMetrics('gateway');
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register(config), {
    logger: new JsonLogger('gateway', config.LOG_LEVEL),
    bodyParser: false,
    abortOnError: false,
  });
  // req.ip is the address TRUST_PROXY hops back from the socket; the live feed reads it the same way (ADR 0054).
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  app.use(httpMetrics);
  app.use(requestContext);
  app.use(securityHeaders());
  app.use(...jsonBody());
  app.use(unsubscribeRedirect());
  app.use(...webApp(config.WEB_DIST, app.get(PageRenderer)));
  // Site files crawlers ask for at the root stay there (ADR 0071), as the probes do.
  app.setGlobalPrefix('api', { exclude: ['healthz', 'readyz', 'robots.txt', 'sitemap.xml', 'sitemaps/:file'] });
  app.useGlobalFilters(new AllErrorsFilter());

  // The document is generated from the route declarations in contracts, the same ones the controllers serve (ADR 0028).
  SwaggerModule.setup('api/docs', app, apiDocument() as unknown as OpenAPIObject, { jsonDocumentUrl: 'api/docs/openapi.json' });
  return app;
}
