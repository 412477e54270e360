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
import { authedProcedure, publicProcedure, router, scriptProcedure } from '../rpc/trpc';
import {
  changePassword,
  checkResetToken,
  recover,
  register,
  resendVerification,
  resetPassword,
  verifyEmail,
} from './account';
import { login, logout } from './login';
import { commonInfo, visited } from './profile';
import { getTfa, updateTfa } from './tfa';

// Procedure names are the spec's call names (platform-and-account.md section 7).
export const authRouter = router({
  login: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/public_api/login',
        summary:
          '`{success, message, tfa_authenticated, auth_token?, qr_key?}`; `username` may be the email; with 2FA on, the first call answers `tfa_authenticated:false` and no token',
      },
    })
    .input(loginInput)
    .output(loginOutput)
    .mutation(({ ctx, input }) => login(ctx, input)),
  register: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/public_api/register',
        summary: '`{success, message}`; mails a verification link',
      },
    })
    .input(registerInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => register(ctx, input)),
  recover: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/public_api/recover',
        summary: '`{success, message}` (the same answer for unknown emails)',
      },
    })
    .input(recoverInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => recover(ctx, input.email)),
  reset: publicProcedure
    .meta({ rest: { method: 'POST', path: '/public_api/reset', summary: '`{success, message}`' } })
    .input(resetInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => resetPassword(ctx, input)),
  check_reset_token: publicProcedure
    .meta({ rest: { method: 'POST', path: '/public_api/check_reset_token', summary: '`{success}`' } })
    .input(checkResetTokenInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => checkResetToken(ctx, input.token)),
  verify: publicProcedure
    .meta({ rest: { method: 'POST', path: '/public_api/verify', summary: '`{success, message}`' } })
    .input(verifyInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => verifyEmail(ctx, input.hash)),

  get_common_info: scriptProcedure
    .meta({
      allowInMaintenance: true,
      rest: {
        method: 'GET',
        path: '/api/get_common_info',
        summary:
          '`{success, info{user_id, username, balance, email, verified, created_at, stripe_public_key, room_id, qr_url, alert}, maintenance}`',
      },
    })
    .output(commonInfoOutput)
    .query(({ ctx }) => commonInfo(ctx, ctx.user)),
  get_tfa: authedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/get_tfa', summary: '`{enabled, secret}` (the secret only while 2FA is off)' },
    })
    .output(tfaInfo)
    .query(({ ctx }) => getTfa(ctx, ctx.user)),
  logout: authedProcedure
    .meta({ allowInMaintenance: true, rest: { method: 'POST', path: '/api/logout', summary: '`{success}`' } })
    .input(empty.optional())
    .output(okResponse)
    .mutation(({ ctx }) => logout(ctx, ctx.session)),
  update_tfa: authedProcedure
    .meta({ rest: { method: 'POST', path: '/api/update_tfa', summary: '`{success, message}`' } })
    .input(updateTfaInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => updateTfa(ctx, ctx.user, input)),
  change_password: authedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/change_password',
        summary: '`{success, message}`; signs out the other sessions',
      },
    })
    .input(changePasswordInput)
    .output(messageResponse)
    .mutation(({ ctx, input }) => changePassword(ctx, ctx.user, ctx.session.id, input)),
  resend_verification_email: authedProcedure
    .meta({ rest: { method: 'POST', path: '/api/resend_verification_email', summary: '`{success, message}`' } })
    .input(empty.optional())
    .output(messageResponse)
    .mutation(({ ctx }) => resendVerification(ctx, ctx.user)),
  visited: authedProcedure
    .meta({ rest: { method: 'POST', path: '/api/visited', summary: '`{success}`' } })
    .input(visitedInput)
    .output(okResponse)
    .mutation(({ ctx, input }) => visited(ctx, ctx.user, input.fullPath)),
});
