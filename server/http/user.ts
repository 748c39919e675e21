import type { AppContext } from '../context.ts';
import { DomainError, badRequest } from '../domain/errors.ts';
import * as auth from '../domain/auth.ts';
import * as profile from '../domain/profile.ts';
import { findUserByEmail, isUsernameTaken } from '../domain/users.ts';
import { listTransactions } from '../domain/transactions.ts';
import { listWallets, selectWallet } from '../domain/wallets.ts';
import { releaseHeldDeposits } from '../domain/held-deposits.ts';
import { SocialLoginError, verifyFacebookToken, verifyGoogleCredential } from '../providers/identity.ts';
import { player } from './auth-guard.ts';
import { apiAddress, apiUser } from './mappers.ts';
import { checkParts, readMultipart } from './multipart.ts';
import type { JsonHandlers, RawHandlers } from './types.ts';
import type { UserRow } from '../domain/users.ts';

/**
 * Every failure to verify a social sign-in is 422 SOCIAL_LOGIN_FAILED, the provider being unreachable
 * included (openapi.yaml): the player can only try again or use a password.
 */
function socialFailure(error: unknown): never {
  if (error instanceof SocialLoginError) {
    if (error.reason === 'not_configured') throw new DomainError('SOCIAL_LOGIN_NOT_CONFIGURED');
    throw new DomainError('SOCIAL_LOGIN_FAILED');
  }
  throw error;
}

function session(result: { accessToken: string; expiresAt: Date; user: UserRow }) {
  return { accessToken: result.accessToken, expiresAt: result.expiresAt.toISOString(), user: apiUser(result.user) };
}

export function userHandlers(ctx: AppContext): { json: JsonHandlers; raw: RawHandlers } {
  const json: JsonHandlers = {
    userLogin: async ({ body, ip }) => session(await auth.login(ctx, body, ip)),

    userGoogleLogin: async ({ body, ip }) => {
      const clientId = ctx.config.googleClientId;
      if (!clientId) throw new DomainError('SOCIAL_LOGIN_NOT_CONFIGURED');
      await auth.limitSocialLogin(ctx, ip);
      const profileData = await verifyGoogleCredential(body.credential, {
        clientId,
        jwksUrl: ctx.config.googleJwksUrl,
        issuers: ctx.config.googleIssuers,
      }).catch(socialFailure);
      const result = await auth.socialLogin(ctx, profileData);
      return { ...session(result), isNewUser: result.isNewUser };
    },

    userFacebookLogin: async ({ body, ip }) => {
      const { facebookAppId: appId, facebookAppSecret: appSecret } = ctx.config;
      if (!appId || !appSecret) throw new DomainError('SOCIAL_LOGIN_NOT_CONFIGURED');
      await auth.limitSocialLogin(ctx, ip);
      const profileData = await verifyFacebookToken(body.accessToken, body.userID, {
        appId,
        appSecret,
        graphUrl: ctx.config.facebookGraphUrl,
      }).catch(socialFailure);
      const result = await auth.socialLogin(ctx, profileData);
      return { ...session(result), isNewUser: result.isNewUser };
    },

    userLogout: async (input) => {
      await auth.logout(ctx, player(input).sessionId);
      return { success: true };
    },

    userSignup: async ({ body, ip }) => ({ user: apiUser(await auth.signup(ctx, body, ip)) }),

    userResendVerificationEmail: async ({ body, ip }) => {
      await auth.resendVerification(ctx, body.email, ip);
      return { success: true };
    },

    userVerifyEmail: async ({ query }) => {
      const user = await auth.verifyEmail(ctx, query.token);
      return { success: true, email: user.email };
    },

    userForgotPassword: async ({ body, ip }) => {
      await auth.forgotPassword(ctx, body.email, ip);
      return { success: true };
    },

    userVerifyForgotPassword: async ({ body }) => {
      await auth.resetPassword(ctx, body);
      return { success: true };
    },

    userUpdatePassword: async (input) => {
      const me = player(input);
      await auth.changePassword(ctx, me.userId, me.sessionId, input.body);
      return { success: true };
    },

    userGetUser: async (input) => ({ user: apiUser(player(input).user) }),

    userUpdate: async (input) => ({ user: apiUser(await profile.updateProfile(ctx, player(input).userId, input.body)) }),

    userCheckUser: async ({ query, ip }) => {
      await auth.limitCheckUser(ctx, ip);
      if (query.username === undefined && query.email === undefined) {
        throw badRequest([{ field: 'username', code: 'required' }]);
      }
      const result: { usernameAvailable?: boolean; emailAvailable?: boolean } = {};
      if (query.username !== undefined) {
        result.usernameAvailable = !(await isUsernameTaken(ctx.db, query.username));
      }
      if (query.email !== undefined) result.emailAvailable = !(await findUserByEmail(ctx.db, query.email));
      return result;
    },

    userUpdateSessionLimit: async (input) => {
      const minutes = await profile.updateSessionLimit(ctx, player(input).userId, input.body.sessionLimitMinutes);
      return { success: true, sessionLimitMinutes: minutes };
    },

    userGetAddresses: async (input) => ({
      addresses: (await profile.listAddresses(ctx.db, player(input).userId)).map(apiAddress),
    }),

    userAddAddress: async (input) => ({ address: apiAddress(await profile.addAddress(ctx, player(input).userId, input.body)) }),

    userUpdateAddress: async (input) => {
      const { addressId, ...fields } = input.body;
      return { address: apiAddress(await profile.updateAddress(ctx, player(input).userId, addressId, fields)) };
    },

    userRemoveAddress: async (input) => {
      await profile.removeAddress(ctx, player(input).userId, input.body.addressId);
      return { success: true };
    },

    userUploadProfileImage: async (input) => {
      const me = player(input);
      const form = await readMultipart(input.req, 1);
      checkParts('userUploadProfileImage', form);
      const file = form.files.find((f) => f.field === 'file');
      if (!file) throw badRequest([{ field: 'file', code: 'required' }]);
      return { user: apiUser(await profile.setProfileImage(ctx, me.user, file.fileName, file.bytes)) };
    },

    userRemoveProfileImage: async (input) => ({ user: apiUser(await profile.removeProfileImage(ctx, player(input).user)) }),

    userGetWallets: async (input) => {
      const userId = player(input).userId;
      // Held deposit money is released here as far as the deposit limits now allow (held-deposits.ts).
      await releaseHeldDeposits(ctx.db, userId, ctx.now());
      return { wallets: await listWallets(ctx.db, userId) };
    },

    userSelectWallet: async (input) => ({
      wallets: await selectWallet(ctx.db, player(input).userId, input.body.walletId),
    }),

    userGetTransactions: async (input) => ({
      transactions: await listTransactions(ctx.db, player(input).userId, input.query),
    }),
  };

  const raw: RawHandlers = {
    userGetProfileImage: async (req, reply) => {
      const { imageId } = req.params as { imageId: string };
      const image = await profile.readProfileImage(ctx, imageId);
      if (!image) throw new DomainError('NOT_FOUND');
      // The type is the one sniffed from the bytes at upload, never the uploader's claim.
      reply
        .header('content-type', image.type === 'png' ? 'image/png' : 'image/jpeg')
        .header('x-content-type-options', 'nosniff')
        // openapi.yaml: the id changes with every upload, so its bytes never change.
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-security-policy', "default-src 'none'");
      return reply.send(image.bytes);
    },
  };
  return { json, raw };
}
