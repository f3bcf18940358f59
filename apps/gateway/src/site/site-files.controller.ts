import { Controller, Get, Header, Inject, Param } from '@nestjs/common';
import { notFound } from '@market/server-kit';
import { GATEWAY_CONFIG, publicOrigin, type GatewayConfig } from '../gateway.config';
import { robotsTxt } from './site-files';
import { Sitemaps } from './sitemaps';

const LISTINGS_FILE = /^listings-([1-9]\d{0,3})\.xml$/;

/**
 * Files crawlers ask for at the site's root (ADR 0071): robots.txt and the sitemaps. Site files, not API routes, so
 * they are outside /api and the contracts' route table, like /healthz.
 */
@Controller()
export class SiteFilesController {
  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    private readonly sitemaps: Sitemaps,
  ) {}

  @Get('robots.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=3600')
  robots(): string {
    return robotsTxt(publicOrigin(this.config));
  }

  @Get('sitemap.xml')
  @Header('Content-Type', 'application/xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=600')
  index(): Promise<string> {
    return this.sitemaps.index();
  }

  @Get('sitemaps/:file')
  @Header('Content-Type', 'application/xml; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=600')
  file(@Param('file') file: string): Promise<string> {
    if (file === 'pages.xml') return this.sitemaps.pages();
    const listings = LISTINGS_FILE.exec(file);
    if (!listings) throw notFound('No such sitemap');
    return this.sitemaps.listings(Number(listings[1]));
  }
}
