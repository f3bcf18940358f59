import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AllErrorsFilter, checkSubjectSpaces, JsonLogger } from '@market/server-kit';
import type { GatewayConfig } from './gateway.config';
import { GatewayModule } from './gateway.module';
import { requestContext } from './http/request-context.middleware';
import { jsonBody } from './http/body-parsing';
import { securityHeaders } from './http/security-headers';
import { webApp } from './http/web-app';

/** Builds the gateway application (not yet listening). */
export async function createGateway(config: GatewayConfig): Promise<NestExpressApplication> {
  checkSubjectSpaces(config);
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.register(config), {
    logger: new JsonLogger('gateway', config.LOG_LEVEL),
    bodyParser: false,
    abortOnError: false,
  });
  if (config.TRUST_PROXY) app.set('trust proxy', 1);
  app.disable('x-powered-by');
  app.use(requestContext);
  app.use(securityHeaders());
  app.use(...jsonBody());
  app.use(...webApp(config.WEB_DIST));
  app.setGlobalPrefix('api', { exclude: ['healthz', 'readyz'] });
  app.useGlobalFilters(new AllErrorsFilter());
  app.enableShutdownHooks();

  const openApi = new DocumentBuilder()
    .setTitle('Site Market API')
    .setDescription('The marketplace API. Errors are {"detail": ...}; validation failures are 422 detail lists.')
    .setVersion('1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, openApi), { jsonDocumentUrl: 'api/docs/openapi.json' });
  return app;
}
