import { expect } from 'vitest';
import { TOTP } from 'otpauth';
import { softwarePasskey, type SoftwarePasskey } from './software-authenticator';
import { stepUpMessages, type StepUpRequired } from '../../src/contract/stepUp';

/**
 * The stolen-session attacks of issue 28 (docs/security.md#step-up), made the same way against one
 * in-process server on SQLite and against two instances on PostgreSQL. The owner's session lives on
 * the `owner` side; the thief replays its token, whose proof of presence is older than the window, on
 * the `thief` side (the other instance in a cluster). Each refusal is proven by re-reading the
 * victim's rows; then the owner steps up on their side and the same action succeeds on the thief's.
 */

export const ORIGIN = 'https://carnivo.test';
export const RP_ID = 'carnivo.test';

export type Side = 'owner' | 'thief';
export type Body = Record<string, unknown> & {
  jwt?: string;
  user?: { id: number };
  secret?: string;
  recoveryCodes?: string[];
  data?: unknown;
  error?: { message: string; details?: unknown };
};
export interface Answer {
  status: number;
  body: Body;
}

export interface StepUpSurface {
  /** Signs a member up on the owner's side: the scaffold's sign-up (app.register, a cluster's register). */
  register(username: string): Promise<Member>;
  call(side: Side, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, options?: { body?: unknown; token?: string }): Promise<Answer>;
  /** Moves the session's proof of presence back past the window: what a stolen, older token holds. */
  ageProof(jwt: string): Promise<void>;
  /** The member's row as stored (null once deleted). */
  userRow(id: number): Promise<{ email: string; password: string; pending_email: string | null } | null>;
  /** Ids of the member's passkeys, ascending. */
  passkeyIds(id: number): Promise<number[]>;
  /** Passkey registration challenges issued for the member. */
  challenges(id: number): Promise<number>;
  /** The member's two-factor row and how many recovery codes they hold (as stored: compare on one surface only). */
  twoFactor(
    id: number,
  ): Promise<{ row: { secret: string | null; pending_secret: string | null; enabled_at: unknown } | null; codes: number }>;
}

export interface Member {
  id: number;
  jwt: string;
  email: string;
  password: string;
}

let counter = 0;
export const register = (surface: StepUpSurface, prefix = 'su'): Promise<Member> =>
  surface.register(`${prefix}${++counter}x${Date.now() % 100000}`);

export function expectStepUpAsked(res: Answer, methods: StepUpRequired['methods']): void {
  expect(res.status, JSON.stringify(res.body)).toBe(403);
  expect(res.body.error?.message).toBe(stepUpMessages.required);
  expect(res.body.error?.details).toEqual({ stepUp: true, methods });
}

export const stepUp = (surface: StepUpSurface, side: Side, jwt: string, body: unknown) =>
  surface.call(side, 'POST', '/api/auth/step-up', { token: jwt, body });

export const codeOf = (secret: string, steps = 0) =>
  TOTP.generate({ secret: new TOTP({ secret }).secret, timestamp: Date.now() + steps * 30_000 });
/** Waits out the last seconds of a 30-second step, so a code made now is still good when it arrives. */
export async function awayFromStepEdge(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 4_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

/** Two-factor turned on (set-up and code on `side`, while the session is fresh); the secret and the recovery codes. */
export async function turnOnTwoFactor(
  surface: StepUpSurface,
  member: Member,
  side: Side = 'owner',
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await surface.call(side, 'POST', '/api/two-factor/setup', { token: member.jwt });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  await awayFromStepEdge();
  const enabled = await surface.call(side, 'POST', '/api/two-factor/enable', {
    token: member.jwt,
    body: { code: codeOf(setup.body.secret!) },
  });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { secret: setup.body.secret!, recoveryCodes: enabled.body.recoveryCodes! };
}

/** A passkey registered on `side` (options and credential there). */
export async function addPasskey(
  surface: StepUpSurface,
  member: Member,
  side: Side = 'owner',
  passkey: SoftwarePasskey = softwarePasskey({ origin: ORIGIN, rpId: RP_ID }),
) {
  const options = await surface.call(side, 'POST', '/api/passkeys/registration-options', { token: member.jwt });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const saved = await surface.call(side, 'POST', '/api/passkeys', {
    token: member.jwt,
    body: { credential: passkey.register(options.body as { challenge: string }) },
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(201);
  return { passkey, id: (saved.body.data as { id: number }).id };
}

/**
 * A stolen session cannot add a passkey to a member with two-factor on (nor get a challenge for it);
 * the password alone does not prove presence then. After a recovery code on the owner's side, the
 * owner adds one on the thief's.
 */
export async function passkeyOnTwoFactorMember(surface: StepUpSurface): Promise<void> {
  const victim = await register(surface);
  const { recoveryCodes } = await turnOnTwoFactor(surface, victim);
  await surface.ageProof(victim.jwt);
  expectStepUpAsked(await surface.call('thief', 'POST', '/api/passkeys/registration-options', { token: victim.jwt }), ['code']);
  // Options of the attacker's own making: refused before the credential is even read.
  const attacker = softwarePasskey({ origin: ORIGIN, rpId: RP_ID });
  expectStepUpAsked(
    await surface.call('thief', 'POST', '/api/passkeys', {
      token: victim.jwt,
      body: { credential: attacker.register({ challenge: 'c3RvbGVu' }) },
    }),
    ['code'],
  );
  expect(await surface.passkeyIds(victim.id)).toEqual([]);
  expect(await surface.challenges(victim.id)).toBe(0);

  // The password alone is not a proof once two-factor is on.
  const byPassword = await stepUp(surface, 'thief', victim.jwt, { password: victim.password });
  expect(byPassword.status).toBe(400);
  expect(byPassword.body.error?.message).toBe(stepUpMessages.codeNeeded);
  expectStepUpAsked(await surface.call('thief', 'POST', '/api/passkeys/registration-options', { token: victim.jwt }), ['code']);
  expect((await stepUp(surface, 'thief', victim.jwt, { code: '000000' })).status).toBe(400);
  expect(await surface.passkeyIds(victim.id)).toEqual([]);

  const proved = await stepUp(surface, 'owner', victim.jwt, { code: recoveryCodes[0] });
  expect(proved.status, JSON.stringify(proved.body)).toBe(200);
  const { id } = await addPasskey(surface, victim, 'thief');
  expect(await surface.passkeyIds(victim.id)).toEqual([id]);
}

/** A stolen session cannot turn two-factor on with the attacker's authenticator; after the password, the owner can. */
export async function twoFactorWithAttackersAuthenticator(surface: StepUpSurface): Promise<void> {
  const victim = await register(surface);
  await surface.ageProof(victim.jwt);
  expectStepUpAsked(await surface.call('thief', 'POST', '/api/two-factor/setup', { token: victim.jwt }), ['password']);
  // A code from the attacker's own authenticator, for a secret of the attacker's own.
  const attackers = new TOTP({ secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }).generate();
  expectStepUpAsked(await surface.call('thief', 'POST', '/api/two-factor/enable', { token: victim.jwt, body: { code: attackers } }), [
    'password',
  ]);
  expect(await surface.twoFactor(victim.id)).toEqual({ row: null, codes: 0 });

  expect((await stepUp(surface, 'owner', victim.jwt, { password: victim.password })).status).toBe(200);
  await turnOnTwoFactor(surface, victim, 'thief');
  const { row, codes } = await surface.twoFactor(victim.id);
  expect(row?.enabled_at).toBeTruthy();
  expect(codes).toBeGreaterThan(0);
}

/** A stolen session cannot remove a passkey; after the password, the owner can. */
export async function removePasskey(surface: StepUpSurface): Promise<void> {
  const victim = await register(surface);
  const { id } = await addPasskey(surface, victim);
  await surface.ageProof(victim.jwt);
  expectStepUpAsked(await surface.call('thief', 'DELETE', `/api/passkeys/${id}`, { token: victim.jwt }), ['password', 'passkey']);
  expect(await surface.passkeyIds(victim.id)).toEqual([id]);

  expect((await stepUp(surface, 'owner', victim.jwt, { password: victim.password })).status).toBe(200);
  expect((await surface.call('thief', 'DELETE', `/api/passkeys/${id}`, { token: victim.jwt })).status).toBe(200);
  expect(await surface.passkeyIds(victim.id)).toEqual([]);
}

/**
 * A stolen session cannot delete the account, change the e-mail or the password (even with the current
 * password: a phished password and a stolen token), or download the data; everything else still works.
 * After the owner's password, each goes through.
 */
export async function accountActions(surface: StepUpSurface): Promise<void> {
  const victim = await register(surface);
  await surface.ageProof(victim.jwt);
  const before = await surface.userRow(victim.id);
  expect(before?.pending_email).toBeNull();

  expectStepUpAsked(await surface.call('thief', 'DELETE', '/api/users-permissions/users/delete-account', { token: victim.jwt }), [
    'password',
  ]);
  expectStepUpAsked(
    await surface.call('thief', 'PUT', `/api/users/${victim.id}`, {
      token: victim.jwt,
      body: { email: `taken.${victim.email}`, currentPassword: victim.password },
    }),
    ['password'],
  );
  expectStepUpAsked(
    await surface.call('thief', 'POST', '/api/auth/change-password', {
      token: victim.jwt,
      body: { currentPassword: victim.password, password: 'Attacker-Pass-9', passwordConfirmation: 'Attacker-Pass-9' },
    }),
    ['password'],
  );
  const exported = await surface.call('thief', 'GET', '/api/account/export', { token: victim.jwt });
  expectStepUpAsked(exported, ['password']);
  expect(JSON.stringify(exported.body)).not.toContain(victim.email);

  expect(await surface.userRow(victim.id)).toEqual(before);
  // The session still works for everything else.
  expect((await surface.call('thief', 'GET', '/api/users/me', { token: victim.jwt })).status).toBe(200);

  // The owner proves presence; each action then goes through.
  expect((await stepUp(surface, 'owner', victim.jwt, { password: victim.password })).status).toBe(200);
  expect((await surface.call('thief', 'GET', '/api/account/export', { token: victim.jwt })).status).toBe(200);
  const changed = await surface.call('thief', 'PUT', `/api/users/${victim.id}`, {
    token: victim.jwt,
    body: { email: `new.${victim.email}`, currentPassword: victim.password },
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  expect((await surface.userRow(victim.id))?.pending_email).toBe(`new.${victim.email}`);
  const deleted = await surface.call('thief', 'DELETE', '/api/users-permissions/users/delete-account', { token: victim.jwt });
  expect(deleted.status).toBe(200);
  expect(await surface.userRow(victim.id)).toBeNull();
}

/** A stolen session cannot change the password; after the owner's password, the owner can. */
export async function changePassword(surface: StepUpSurface): Promise<void> {
  const victim = await register(surface);
  await surface.ageProof(victim.jwt);
  const before = await surface.userRow(victim.id);
  const body = { currentPassword: victim.password, password: 'Owner-New-Pass-7', passwordConfirmation: 'Owner-New-Pass-7' };
  expectStepUpAsked(await surface.call('thief', 'POST', '/api/auth/change-password', { token: victim.jwt, body }), ['password']);
  expect(await surface.userRow(victim.id)).toEqual(before);

  expect((await stepUp(surface, 'owner', victim.jwt, { password: victim.password })).status).toBe(200);
  const changed = await surface.call('thief', 'POST', '/api/auth/change-password', { token: victim.jwt, body });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  const after = await surface.userRow(victim.id);
  expect(after?.password).not.toBe(before?.password);
  expect(after?.email).toBe(victim.email);
}
