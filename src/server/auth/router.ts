import {
  changePasswordInput,
  checkResetTokenInput,
  commonInfoOutput,
  loginInput,
  loginOutput,
  recoverInput,
  registerInput,
  resetInput,
  tfaInfo,
  updateTfaInput,
  verifyInput,
  visitedInput,
} from '../../shared/schemas/auth';
import { empty, messageResponse, okResponse } from '../../shared/schemas/common';
import { authedProcedure, publicProcedure, router } from '../trpc';
import { changePassword, checkResetToken, recover, register, resendVerification, resetPassword, verifyEmail } from './account';
import { login, logout } from './login';
import { commonInfo, visited } from './profile';
import { getTfa, updateTfa } from './tfa';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const authRouter = router({
  login: publicProcedure.input(loginInput).output(loginOutput).mutation(({ ctx, input }) => login(ctx, input)),
  register: publicProcedure.input(registerInput).output(messageResponse).mutation(({ ctx, input }) => register(ctx, input)),
  recover: publicProcedure.input(recoverInput).output(messageResponse).mutation(({ ctx, input }) => recover(ctx, input.email)),
  reset: publicProcedure.input(resetInput).output(messageResponse).mutation(({ ctx, input }) => resetPassword(ctx, input)),
  check_reset_token: publicProcedure.input(checkResetTokenInput).output(okResponse).mutation(({ ctx, input }) => checkResetToken(ctx, input.token)),
  verify: publicProcedure.input(verifyInput).output(messageResponse).mutation(({ ctx, input }) => verifyEmail(ctx, input.hash)),

  get_common_info: authedProcedure
    .meta({ allowInMaintenance: true })
    .output(commonInfoOutput)
    .query(({ ctx }) => commonInfo(ctx, ctx.user)),
  get_tfa: authedProcedure.output(tfaInfo).query(({ ctx }) => getTfa(ctx, ctx.user)),
  logout: authedProcedure
    .meta({ allowInMaintenance: true })
    .input(empty.optional())
    .output(okResponse)
    .mutation(({ ctx }) => logout(ctx, ctx.session)),
  update_tfa: authedProcedure.input(updateTfaInput).output(messageResponse).mutation(({ ctx, input }) => updateTfa(ctx, ctx.user, input)),
  change_password: authedProcedure
    .input(changePasswordInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => changePassword(ctx, ctx.user, ctx.session.id, input)),
  resend_verification_email: authedProcedure
    .input(empty.optional())
    .output(messageResponse)
    .mutation(({ ctx }) => resendVerification(ctx, ctx.user)),
  visited: authedProcedure.input(visitedInput).output(okResponse).mutation(({ ctx, input }) => visited(ctx, ctx.user, input.fullPath)),
});
