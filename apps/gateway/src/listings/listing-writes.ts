import { Injectable, Logger } from '@nestjs/common';
import { ObjectStorage } from '../uploads';
import { BrowseCache } from './browse-cache';

/** What follows every listing write through this gateway: fresh browse pages and no orphaned screenshots. */
@Injectable()
export class ListingWrites {
  private readonly logger = new Logger('ListingWrites');

  constructor(
    private readonly storage: ObjectStorage,
    private readonly browseCache: BrowseCache,
  ) {}

  /**
   * Drops this gateway's cached browse pages at once (other gateways drop theirs when the event arrives) and deletes
   * screenshots no listing uses any more; a storage hiccup is logged, never turned into a failed request.
   */
  async settled(removedScreenshots: string[] = []): Promise<void> {
    this.browseCache.clear();
    if (removedScreenshots.length === 0) return;
    await this.storage
      .remove(removedScreenshots)
      .catch((error: Error) => this.logger.warn(`Could not delete ${removedScreenshots.join(', ')}: ${error.message}`));
  }
}
