import { Controller } from '@nestjs/common';
import { RPC, type RpcParsed } from '@market/contracts';
import { RpcHandler, requireActor, type RpcCall } from '@market/server-kit';
import { AccountTokensService } from './account-tokens.service';
import { ProfileService } from '../profile/profile.service';
import { EmailChangeService } from '../profile/email-change.service';

/** NATS handlers of email verification, password reset, the profile and undoing an email change. */
@Controller()
export class AccountController {
  constructor(
    private readonly accountTokens: AccountTokensService,
    private readonly profile: ProfileService,
    private readonly emailChange: EmailChangeService,
  ) {}

  @RpcHandler(RPC.auth.verifyEmail)
  verifyEmail(input: RpcParsed<typeof RPC.auth.verifyEmail>) {
    return this.accountTokens.verifyEmail(input.token);
  }

  @RpcHandler(RPC.auth.resendVerification)
  resendVerification(_input: unknown, call: RpcCall) {
    return this.accountTokens.resendVerification(requireActor(call.actor));
  }

  @RpcHandler(RPC.auth.forgotPassword)
  forgotPassword(input: RpcParsed<typeof RPC.auth.forgotPassword>) {
    return this.accountTokens.forgotPassword(input.email);
  }

  @RpcHandler(RPC.auth.resetPassword)
  resetPassword(input: RpcParsed<typeof RPC.auth.resetPassword>) {
    return this.accountTokens.resetPassword(input);
  }

  @RpcHandler(RPC.auth.updateProfile)
  updateProfile(input: RpcParsed<typeof RPC.auth.updateProfile>, call: RpcCall) {
    return this.profile.updateProfile(requireActor(call.actor), input);
  }

  @RpcHandler(RPC.auth.undoEmailChange)
  undoEmailChange(input: RpcParsed<typeof RPC.auth.undoEmailChange>) {
    return this.emailChange.undo(input.token);
  }

  @RpcHandler(RPC.auth.changePassword)
  changePassword(input: RpcParsed<typeof RPC.auth.changePassword>, call: RpcCall) {
    return this.profile.changePassword(requireActor(call.actor), input);
  }
}
