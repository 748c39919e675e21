import { object, type Infer } from 'superstruct';
import {
  CurrentPassword,
  EncodedCurrentPassword,
  EncodedPassword,
  Password,
} from './password.ts';
import { confirmationOf, relatesTo, requiredText } from './refinements.ts';
import { isEmail, isUsername, userFields, type PasswordTransport } from './user.ts';

/** Login identifier: the API field is named `email` but players may type their username (SPEC §1). */
export const LoginId = requiredText([['loginId', (v) => isEmail(v) || isUsername(v)]]);

/**
 * The password structs in one transport: 'plain' for the SPA's forms, 'base64' for what the server
 * receives (SPEC §5/§7: passwords travel base64-encoded). Old/current passwords are only required to be
 * present: they were set under whatever rules applied then.
 */
export function createAuthStructs(passwords: PasswordTransport) {
  const current = passwords === 'base64' ? EncodedCurrentPassword : CurrentPassword;
  const fresh = passwords === 'base64' ? EncodedPassword : Password;
  // Comparing base64 forms is comparing the texts: the encoding is deterministic and one-to-one.
  const passwordChangeFields = {
    oldPassword: current,
    newPassword: relatesTo(fresh, 'newPassword.sameAsOld', 'oldPassword', (pw, old) => pw !== old),
  };
  const resetFields = { token: requiredText([]), newPassword: fresh };
  return {
    LoginInput: object({ email: LoginId, password: current }),
    PasswordChange: object(passwordChangeFields),
    /** The change-password form: the payload plus a confirmation of the new password. */
    PasswordChangeForm: object({ ...passwordChangeFields, confirmPassword: confirmationOf('newPassword') }),
    ResetPasswordInput: object(resetFields),
    /** The reset-password form: the payload plus a confirmation of the new password. */
    ResetPasswordForm: object({ ...resetFields, confirmPassword: confirmationOf('newPassword') }),
  };
}

const plain = createAuthStructs('plain');
const encoded = createAuthStructs('base64');

export const LoginInput = plain.LoginInput;
export type LoginInput = Infer<typeof LoginInput>;
export const EncodedLoginInput = encoded.LoginInput;

export const ForgotPasswordInput = object({ email: userFields.email });
export type ForgotPasswordInput = Infer<typeof ForgotPasswordInput>;

export const PasswordChange = plain.PasswordChange;
export type PasswordChange = Infer<typeof PasswordChange>;
export const EncodedPasswordChange = encoded.PasswordChange;
export const PasswordChangeForm = plain.PasswordChangeForm;
export type PasswordChangeForm = Infer<typeof PasswordChangeForm>;

export const ResetPasswordInput = plain.ResetPasswordInput;
export type ResetPasswordInput = Infer<typeof ResetPasswordInput>;
export const EncodedResetPasswordInput = encoded.ResetPasswordInput;
export const ResetPasswordForm = plain.ResetPasswordForm;
export type ResetPasswordForm = Infer<typeof ResetPasswordForm>;
