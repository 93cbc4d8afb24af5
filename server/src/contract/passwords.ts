import { check, object, pipe, string, transform } from 'valibot';
import { emailMessages, isBlank, isValidEmail } from './fieldRules';
import { firstError, textField } from './schema';

/** SPEC §9: the new password minimum, for reset and change alike. */
export const PASSWORD_MIN_LENGTH = 6;
/** bcrypt reads only the first 72 bytes (users-permissions refuses longer passwords too). */
const PASSWORD_MAX_BYTES = 72;

/** SPEC §5 reset messages, shown by the reset form and sent by the reset routes. */
export const resetMessages = {
  missingEmail: 'Please enter your email.',
  invalidEmail: emailMessages.invalid,
  missingCode: 'Please enter the reset code.',
  missingPasswords: 'Please fill in both password fields.',
  mismatch: 'Passwords do not match.',
  tooShort: `Password should be at least ${PASSWORD_MIN_LENGTH} characters.`,
  tooLong: `Password must be less than ${PASSWORD_MAX_BYTES + 1} bytes`,
  invalidCode: 'This reset code is invalid or has expired. Please request a new one.',
} as const;

/** SPEC §5 password change messages (the profile form's, and the change-password route's length rule). */
export const passwordChangeMessages = {
  required: 'All password fields are required',
  mismatch: 'New passwords do not match',
  tooShort: `New password must be at least ${PASSWORD_MIN_LENGTH} characters`,
} as const;

/** The one length rule of a new password (each form words its refusal). */
const longEnough = (password: string) => password.length >= PASSWORD_MIN_LENGTH;

/** Case-insensitive; surrounding blanks and any spaces or dashes typed inside are ignored. */
export function normaliseResetCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

/** The address of POST /api/auth/forgot-password: anything but a valid one is refused with the same words. */
const resetAddress = pipe(
  string(resetMessages.invalidEmail),
  transform((email) => email.trim().toLowerCase()),
  check(isValidEmail, resetMessages.invalidEmail),
);

/** POST /api/auth/forgot-password, as the server checks it: the address rule only (a blank one is not valid). */
export const forgotPasswordBody = object({ email: resetAddress }, resetMessages.invalidEmail);

/** SPEC §5 reset step 1, as the form checks it: the address is asked for first, then checked. */
export const forgotPasswordForm = object({
  email: pipe(
    string(),
    check((email) => !isBlank(email), resetMessages.missingEmail),
    resetAddress,
  ),
});

/**
 * SPEC §5 reset step 2 (POST /api/auth/reset-password), in the spec's order, then the server's byte
 * limit. The form and the route read it alike; the parsed code is normalised (what is hashed).
 */
export const resetPasswordBody = pipe(
  object(
    {
      // A field left out reads as empty: its refusal is the spec's, not a missing key's.
      code: pipe(
        textField(resetMessages.missingCode),
        transform(normaliseResetCode),
        check((code) => code !== '', resetMessages.missingCode),
      ),
      password: textField(resetMessages.missingPasswords),
      passwordConfirmation: textField(resetMessages.missingPasswords),
    },
    resetMessages.missingCode,
  ),
  check((fields) => fields.password !== '' && fields.passwordConfirmation !== '', resetMessages.missingPasswords),
  check((fields) => fields.password === fields.passwordConfirmation, resetMessages.mismatch),
  check((fields) => longEnough(fields.password), resetMessages.tooShort),
  check((fields) => new TextEncoder().encode(fields.password).length <= PASSWORD_MAX_BYTES, resetMessages.tooLong),
);

/** SPEC §5 password change, as the profile form checks it. */
export const passwordChangeForm = pipe(
  object({ currentPassword: string(), password: string(), passwordConfirmation: string() }),
  check(
    (fields) => fields.currentPassword !== '' && fields.password !== '' && fields.passwordConfirmation !== '',
    passwordChangeMessages.required,
  ),
  check((fields) => fields.password === fields.passwordConfirmation, passwordChangeMessages.mismatch),
  check((fields) => longEnough(fields.password), passwordChangeMessages.tooShort),
);

/**
 * POST /api/auth/change-password, as the server checks a new password that is text: only its length
 * is ours (Strapi checks the rest of the body).
 */
export const changePasswordBody = pipe(
  object({ password: string() }),
  check((fields) => longEnough(fields.password), passwordChangeMessages.tooShort),
);

/** The reset form's step 1 check: the first broken rule's message, or null. */
export const resetRequestError = (email: string): string | null => firstError(forgotPasswordForm, { email });

/** The reset form's step 2 check. */
export const resetCodeError = (fields: { code: string; password: string; passwordConfirmation: string }): string | null =>
  firstError(resetPasswordBody, fields);
