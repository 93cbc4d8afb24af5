/**
 * How two-factor set-up shows the secret and hands the recovery codes out (docs/security.md#two-factor-authentication).
 */

/** The key in groups of four ("JBSW Y3DP ..."), easier to type into an app by hand; apps ignore the spaces. */
export function spacedKey(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(' ') ?? '';
}

/** The recovery codes as a text file, for Download (and the same lines for Copy and Print). */
export type RecoveryCodesFile = { filename: string; text: string };

export const RECOVERY_CODES_FILENAME = 'carnivo-recovery-codes.txt';

export function recoveryCodesText(codes: readonly string[]): string {
  return ['Carnivo recovery codes', 'Each code signs you in once if you lose your phone. Keep them somewhere safe.', '', ...codes, ''].join(
    '\n',
  );
}

export function recoveryCodesFile(codes: readonly string[]): RecoveryCodesFile {
  return { filename: RECOVERY_CODES_FILENAME, text: recoveryCodesText(codes) };
}
