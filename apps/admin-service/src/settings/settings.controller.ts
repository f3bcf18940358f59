import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { SettingsService } from './settings.service';

/** NATS handlers of the platform settings. */
@Controller()
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @RpcHandler(RPC.admin.getSettings)
  get(_input: unknown, call: RpcCall) {
    return this.settings.get(requireActor(call.actor));
  }

  @RpcHandler(RPC.admin.updateSettings)
  update(input: RpcParsed<typeof RPC.admin.updateSettings>, call: RpcCall) {
    return this.settings.update(requireActor(call.actor), input);
  }

  @RpcHandler(RPC.admin.publicFees)
  publicFees() {
    return this.settings.publicFees();
  }

  @RpcHandler(RPC.admin.effectiveSettings)
  effective() {
    return this.settings.effective();
  }
}
