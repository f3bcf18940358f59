import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DEFAULT_SETTINGS, type PlatformSettings } from '@market/contracts';

/** The admin schema's settings row; missing keys fall back to the defaults. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get(manager: EntityManager = this.dataSource.manager): Promise<PlatformSettings> {
    const rows: Array<{ value: Partial<PlatformSettings> }> = await manager.query('SELECT value FROM settings WHERE id = 1');
    return { ...DEFAULT_SETTINGS, ...(rows[0]?.value ?? {}) };
  }

  /** Runs fn in one transaction holding the settings lock, so concurrent saves each see what the last one stored. */
  transaction<T>(fn: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      // The row may not exist yet (defaults): an advisory lock serialises saves either way.
      await manager.query("SELECT pg_advisory_xact_lock(hashtext('admin.settings'))");
      return fn(manager);
    });
  }

  async put(manager: EntityManager, value: PlatformSettings, updatedBy: string): Promise<void> {
    await manager.query(
      `INSERT INTO settings (id, value, updated_at, updated_by) VALUES (1, $1, now(), $2)
       ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [JSON.stringify(value), updatedBy],
    );
  }
}
