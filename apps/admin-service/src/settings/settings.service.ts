import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { auditDiff, DEFAULT_INSPECTION_DAYS, isEmptyDiff } from '@market/domain';
import { AppError, appendEvent, NATS_CONNECTION, OutboxRelay, requireAdmin, SERVICE_CONFIG, type ServiceConfig } from '@market/server-kit';
import {
  adminActed,
  SETTINGS_CHANGED_SUBJECT,
  type Actor,
  type PlatformSettings,
  type PlatformSettingsView,
  type PublicFees,
} from '@market/contracts';
import { SettingsRepository } from './settings.repository';

/** Platform settings: admins read and replace them; services read the effective values. */
@Injectable()
export class SettingsService {
  private readonly logger = new Logger('Settings');

  constructor(
    private readonly settings: SettingsRepository,
    private readonly relay: OutboxRelay,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  private view(settings: PlatformSettings): PlatformSettingsView {
    return { ...settings, smtp_password: '', smtp_password_set: settings.smtp_password.length > 0 };
  }

  async get(actor: Actor): Promise<PlatformSettingsView> {
    requireAdmin(actor);
    return this.view(await this.settings.get());
  }

  /**
   * Replaces the settings; an empty SMTP password keeps the stored one for the same server (host, port, username). A save that changes something is audited in
   * its transaction with the changed keys before and after, the SMTP password only named (ADR 0032). Services hear
   * of it at once.
   */
  async update(actor: Actor, input: PlatformSettings): Promise<PlatformSettingsView> {
    requireAdmin(actor);
    const next = await this.settings.transaction(async (manager) => {
      const current = await this.settings.get(manager);
      // The stored password goes only to the server it was given for: pointing host, port or username elsewhere needs
      // it again, or an admin could have it sent to a server of theirs (ADR 0031).
      const serverChanged = input.smtp_host !== current.smtp_host || input.smtp_port !== current.smtp_port || input.smtp_username !== current.smtp_username;
      if (serverChanged && input.smtp_host !== '' && !input.smtp_password && current.smtp_password) {
        throw new AppError('validation_failed', [
          { loc: ['body', 'smtp_password'], msg: 'Enter the SMTP password again when you change the SMTP server, port or username', type: 'smtp_password_required' },
        ]);
      }
      const saved: PlatformSettings = {
        ...input,
        // No server, no password: clearing the host (without giving a password) forgets the stored one.
        smtp_password: input.smtp_password || (input.smtp_host === '' ? '' : current.smtp_password),
        anti_sniping_minutes: input.anti_sniping_minutes ?? current.anti_sniping_minutes,
        require_verified_email: input.require_verified_email ?? current.require_verified_email,
        inspection_days: input.inspection_days ?? current.inspection_days,
      };
      await this.settings.put(manager, saved, actor.user_id);
      const diff = auditDiff(current, saved);
      if (!isEmptyDiff(diff)) {
        await appendEvent(manager, 'admin.acted', adminActed(actor, { action: 'settings.updated', target_type: 'settings', target_id: null, ...diff }));
      }
      return saved;
    });
    this.relay.kick();
    this.nc.publish(`${this.config.NATS_SUBJECT_PREFIX}${SETTINGS_CHANGED_SUBJECT}`);
    this.logger.log(`Settings updated by ${actor.user_id}`);
    return this.view(next);
  }

  /**
   * What selling costs, for anyone: listing and featured fees are not charged yet, so only the success fee (D10);
   * whether committing needs a verified email (ADR 0037); and how long a buyer may inspect a site before its funds go to
   * the seller (D22).
   */
  async publicFees(): Promise<PublicFees> {
    const settings = await this.settings.get();
    return {
      success_fee_percent: settings.success_fee,
      verified_email_required: settings.require_verified_email ?? true,
      inspection_days: settings.inspection_days ?? DEFAULT_INSPECTION_DAYS,
    };
  }

  /** The full settings, for other services only. */
  effective(): Promise<PlatformSettings> {
    return this.settings.get();
  }
}
