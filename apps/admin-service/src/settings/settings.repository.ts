import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DEFAULT_SETTINGS, type PlatformSettings } from '@market/contracts';

/** The admin schema's settings row; missing keys fall back to the defaults. */
@Injectable()
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get(): Promise<PlatformSettings> {
    const rows: Array<{ value: Partial<PlatformSettings> }> = await this.dataSource.query('SELECT value FROM settings WHERE id = 1');
    return { ...DEFAULT_SETTINGS, ...(rows[0]?.value ?? {}) };
  }

  async put(value: PlatformSettings, updatedBy: string): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO settings (id, value, updated_at, updated_by) VALUES (1, $1, now(), $2)
       ON CONFLICT (id) DO UPDATE SET value = EXCLUDED.value, updated_at = now(), updated_by = EXCLUDED.updated_by`,
      [JSON.stringify(value), updatedBy],
    );
  }
}
