import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { SaveSettingsSchema, RPC, type RpcEnvelope } from '@market/contracts';
import { parseInput, requireActor } from '@market/server-kit';
import { SettingsService } from './settings.service';

/** NATS handlers of the platform settings. */
@Controller()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @MessagePattern(RPC.admin.getSettings)
  get(@Payload() message: RpcEnvelope) {
    return this.settings.get(requireActor(message.meta.actor));
  }

  @MessagePattern(RPC.admin.updateSettings)
  update(@Payload() message: RpcEnvelope) {
    return this.settings.update(requireActor(message.meta.actor), parseInput(SaveSettingsSchema, message.data));
  }

  @MessagePattern(RPC.admin.publicFees)
  publicFees() {
    return this.settings.publicFees();
  }

  @MessagePattern(RPC.admin.effectiveSettings)
  effective() {
    return this.settings.effective();
  }
}
