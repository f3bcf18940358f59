import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  ChangePasswordRequestSchema,
  ForgotPasswordRequestSchema,
  ResetPasswordRequestSchema,
  RPC,
  UpdateProfileRequestSchema,
  VerifyEmailQuerySchema,
  type RpcEnvelope,
} from '@market/contracts';
import { parseInput, requireActor } from '@market/server-kit';
import { AccountTokensService } from './account-tokens.service';
import { ProfileService } from '../profile/profile.service';

/** NATS handlers of email verification, password reset and the profile. */
@Controller()
export class AccountController {
  constructor(
    private readonly accountTokens: AccountTokensService,
    private readonly profile: ProfileService,
  ) {}

  @MessagePattern(RPC.auth.verifyEmail)
  verifyEmail(@Payload() message: RpcEnvelope) {
    return this.accountTokens.verifyEmail(parseInput(VerifyEmailQuerySchema, message.data).token);
  }

  @MessagePattern(RPC.auth.resendVerification)
  resendVerification(@Payload() message: RpcEnvelope) {
    return this.accountTokens.resendVerification(requireActor(message.meta.actor));
  }

  @MessagePattern(RPC.auth.forgotPassword)
  forgotPassword(@Payload() message: RpcEnvelope) {
    return this.accountTokens.forgotPassword(parseInput(ForgotPasswordRequestSchema, message.data).email);
  }

  @MessagePattern(RPC.auth.resetPassword)
  resetPassword(@Payload() message: RpcEnvelope) {
    return this.accountTokens.resetPassword(parseInput(ResetPasswordRequestSchema, message.data));
  }

  @MessagePattern(RPC.auth.updateProfile)
  updateProfile(@Payload() message: RpcEnvelope) {
    return this.profile.updateProfile(requireActor(message.meta.actor), parseInput(UpdateProfileRequestSchema, message.data));
  }

  @MessagePattern(RPC.auth.changePassword)
  changePassword(@Payload() message: RpcEnvelope) {
    return this.profile.changePassword(requireActor(message.meta.actor), parseInput(ChangePasswordRequestSchema, message.data));
  }
}
