import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed, type SitemapListings } from '@market/contracts';
import { RpcHandler } from '@market/server-kit';
import { SitemapRepository } from './sitemap.repository';

/** The active listings for the gateway's sitemaps (ADR 0071): public facts only, so any caller may ask. */
@Controller()
export class SitemapController {
  constructor(private readonly sitemap: SitemapRepository) {}

  @RpcHandler(RPC.listings.sitemap)
  async slice(input: RpcParsed<typeof RPC.listings.sitemap>): Promise<SitemapListings> {
    // Counted only when asked: a sitemap file reads ten slices and needs the count once (the gateway keeps it).
    const [total, rows] = await Promise.all([input.with_total ? this.sitemap.activeCount() : null, this.sitemap.activeSlice(input.offset, input.limit)]);
    return { total, listings: rows.map((row) => ({ id: row.id, updated_at: new Date(row.updated_at).toISOString() })) };
  }
}
