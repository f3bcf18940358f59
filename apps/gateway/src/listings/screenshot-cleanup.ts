import { Injectable, Logger } from '@nestjs/common';
import { ObjectStorage } from '../uploads';

/** Deletes screenshots a listing no longer uses (dropped in an edit, or the listing deleted). */
@Injectable()
export class ScreenshotCleanup {
  private readonly logger = new Logger('ScreenshotCleanup');

  constructor(private readonly storage: ObjectStorage) {}

  /** Deletes objects no listing uses any more; a storage hiccup is logged, never turned into a failed request. */
  async remove(keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.storage.remove(keys).catch((error: Error) => this.logger.warn(`Could not delete ${keys.join(', ')}: ${error.message}`));
  }
}
