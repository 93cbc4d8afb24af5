import path from 'node:path';
import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../helpers/app';
import { freshClient } from '../helpers/instances';
import { SERVER_DIR, requestFrom } from '../helpers/strapi';
import { ACCOUNT_BUDGET, BURST, LOCKED_CODES, LOCKED_LOG_IN, PASSWORD, TICKET_BUDGET, bursts } from '../helpers/guess-bursts';
import { profileMessages } from '../../src/contract/profileRules';

/**
 * Count first, then check (docs/security.md#rate-limits), on one server on SQLite: 60 concurrent wrong
 * guesses of a member's password (log-in, change-password, e-mail change, two-factor disable) or
 * two-factor code (per account, per ticket) get no more checks than the budget. "Checked" is counted
 * twice: in the answers that say "wrong", and in the comparisons the server made (users-permissions'
 * password check and otpauth's code check, watched in this process). Then the right secret is refused,
 * and the victim's rows are re-read unchanged.
 */

let app: TestApp;

let recording = false;
/** The password hashes compared during bursts, one entry per comparison. */
const passwordChecks: string[] = [];
/** The two-factor secrets (base32) a code was checked against during bursts. */
const codeChecks: string[] = [];
const restore: (() => void)[] = [];

const row = async <T>(sql: string, values: unknown[]): Promise<T | undefined> =>
  ((await app.strapi.db.connection.raw(sql, values)) as T[])[0];
const urls: string[] = [];
const scenarios = bursts({
  urls,
  row,
  client: freshClient,
  recording: (on) => {
    recording = on;
  },
});
const hashOf = async (id: number) => (await row<{ password: string }>('SELECT password FROM up_users WHERE id = ?', [id]))!.password;
const passwordChecksOf = (hash: string) => passwordChecks.filter((checked) => checked === hash).length;

beforeAll(async () => {
  app = await boot({ outbox: true });
  urls.push(app.baseUrl);

  const users = app.strapi.plugin('users-permissions').service('user') as {
    validatePassword(password: string, hash: string): Promise<boolean>;
  };
  const validatePassword = users.validatePassword;
  users.validatePassword = function (password: string, hash: string) {
    if (recording) passwordChecks.push(hash);
    return validatePassword.call(this, password, hash);
  };
  restore.push(() => (users.validatePassword = validatePassword));
  // The server's own otpauth (the CommonJS build Strapi's compiled code requires).
  const { TOTP } = createRequire(path.join(SERVER_DIR, 'package.json'))('otpauth') as typeof import('otpauth');
  const validate = TOTP.prototype.validate;
  TOTP.prototype.validate = function (this: InstanceType<typeof TOTP>, ...args: Parameters<typeof validate>) {
    if (recording) codeChecks.push(this.secret.base32);
    return validate.apply(this, args);
  };
  restore.push(() => (TOTP.prototype.validate = validate));
});

afterAll(async () => {
  for (const undo of restore) undo();
  await app?.stop();
});

describe(`${BURST} concurrent wrong guesses on one server (SQLite)`, () => {
  it('password log-in: at most the budget is checked, an unknown identifier is answered alike, the right password is refused', async () => {
    const result = await scenarios.logIn();
    const checks = passwordChecksOf(await hashOf(result.victim.id));
    console.log(
      `[guess-budget] log-in: ${checks} passwords compared, ${result.known.checked} answered wrong, ${result.known.refused} locked`,
    );
    expect(checks).toBeLessThanOrEqual(ACCOUNT_BUDGET);
    expect(result.known).toEqual({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.unknown).toEqual(result.known);
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
  });

  it('change-password: the current password is counted before it is checked; the password is unchanged', async () => {
    const result = await scenarios.changePassword();
    const checks = passwordChecksOf(result.before!.password);
    console.log(`[guess-budget] change-password: ${checks} passwords compared, ${result.checked} answered wrong, ${result.refused} locked`);
    expect(checks).toBeLessThanOrEqual(ACCOUNT_BUDGET);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(result.after).toEqual(result.before);
  });

  it('e-mail change: the current password is counted before it is checked; nothing is pending, the address is unchanged', async () => {
    const result = await scenarios.emailChange();
    const checks = passwordChecksOf(result.before!.password);
    console.log(`[guess-budget] e-mail change: ${checks} passwords compared, ${result.checked} answered wrong, ${result.refused} locked`);
    expect(checks).toBeLessThanOrEqual(ACCOUNT_BUDGET);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.after).toEqual(result.before);
    expect(result.after!.pending_email).toBeNull();
  });

  it('two-factor disable: the password is counted before it is checked; two-factor stays on', async () => {
    const result = await scenarios.disable();
    const checks = passwordChecksOf(await hashOf(result.victim.id));
    console.log(
      `[guess-budget] two-factor disable: ${checks} passwords compared, ${result.checked} answered wrong, ${result.refused} locked`,
    );
    expect(checks).toBeLessThanOrEqual(ACCOUNT_BUDGET);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(result.after).toEqual(result.before);
    expect(result.after!.enabled_at).not.toBeNull();
    expect(result.recoveryCodes).toBe(10);
  });

  it('two-factor codes over twelve tickets: at most the account budget is checked; the right code is refused, no session', async () => {
    const result = await scenarios.codesPerAccount();
    const checks = codeChecks.filter((secret) => secret === result.victim.secret).length;
    console.log(`[guess-budget] codes per account: ${checks} codes checked, ${result.checked} answered wrong, ${result.refused} locked`);
    expect(checks).toBeLessThanOrEqual(ACCOUNT_BUDGET);
    expect(result).toMatchObject({ checked: ACCOUNT_BUDGET, refused: BURST - ACCOUNT_BUDGET, other: [] });
    expect(result.right.status).toBe(429);
    expect(result.right.body.error?.message).toMatch(LOCKED_CODES);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
    expect(result.recoveryCodes).toBe(10);
  });

  it('two-factor codes on one ticket: at most the ticket budget is checked; the ticket is void for the right code', async () => {
    const result = await scenarios.codesPerTicket();
    const checks = codeChecks.filter((secret) => secret === result.victim.secret).length;
    console.log(`[guess-budget] codes per ticket: ${checks} codes checked, ${result.checked} answered wrong, ${result.voided} void`);
    expect(checks).toBeLessThanOrEqual(TICKET_BUDGET);
    expect(result.checked).toBe(TICKET_BUDGET);
    expect(result.voided).toBe(BURST - TICKET_BUDGET);
    expect(result.right.status).toBe(401);
    expect(result.right.body.jwt).toBeUndefined();
    expect(result.sessionsAfter).toBe(result.sessionsBefore);
  });
});

describe('a ticket keeps its attempts while the codes are locked', () => {
  it('codes refused by the locked code budget (429) use none of the ticket’s 5 attempts', async () => {
    const victim = await scenarios.enrolled('lockedticket');
    const ticket = await scenarios.ticketOf(victim.email);
    const ticketRow = () =>
      row<{ failures: number | null; used_at: unknown }>(
        'SELECT failures, used_at FROM two_factor_tickets WHERE user_id = ? ORDER BY id LIMIT 1',
        [victim.id],
      );
    // Ten wrong codes on two other tickets lock the account's codes.
    const wrong = scenarios.wrongCodes(victim.secret);
    let other = '';
    for (let i = 0; i < ACCOUNT_BUDGET; i += 1) {
      if (i % TICKET_BUDGET === 0) other = await scenarios.ticketOf(victim.email);
      const res = await requestFrom<{ error?: { message: string } }>(freshClient(), app.baseUrl, 'POST', '/api/auth/two-factor', {
        body: { ticket: other, code: wrong[i] },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
    }
    // More tries than the ticket has attempts, the right code among them: each refused unchecked.
    for (let i = 0; i <= TICKET_BUDGET; i += 1) {
      const res = await requestFrom<{ jwt?: string; error?: { message: string } }>(
        freshClient(),
        app.baseUrl,
        'POST',
        '/api/auth/two-factor',
        {
          body: { ticket, code: i === TICKET_BUDGET ? scenarios.codeAt(victim.secret) : wrong[ACCOUNT_BUDGET + i] },
        },
      );
      expect(res.status, JSON.stringify(res.body)).toBe(429);
      expect(res.body.error?.message).toMatch(LOCKED_CODES);
      expect(res.body.jwt).toBeUndefined();
    }
    // Re-read: the ticket is unused with all its attempts left (before the fix: 5 taken, then void).
    expect(await ticketRow()).toEqual({ failures: 0, used_at: null });
  });
});

describe('one password budget per account, whatever the route', () => {
  it('wrong log-ins and wrong current passwords add up: the tenth locks the log-in and the settings alike', async () => {
    const victim = await scenarios.register('sharedbudget');
    const post = (urlPath: string, body: unknown, token?: string) =>
      requestFrom<{ jwt?: string; error?: { message: string } }>(freshClient(), app.baseUrl, 'POST', urlPath, { body, token });
    const change = (currentPassword: string) =>
      post(
        '/api/auth/change-password',
        { currentPassword, password: 'Other-Passw0rd-2', passwordConfirmation: 'Other-Passw0rd-2' },
        victim.jwt,
      );
    for (let i = 0; i < 5; i += 1)
      expect((await post('/api/auth/local', { identifier: victim.email, password: `Wrong-${i}` })).status).toBe(400);
    for (let i = 0; i < 4; i += 1) expect((await change(`Wrong-${i}`)).body.error?.message).toBe(profileMessages.currentPasswordInvalid);
    // The tenth failure, on the settings: it locks the log-in too.
    expect((await change('Wrong-last')).body.error?.message).toBe(profileMessages.currentPasswordInvalid);
    const logIn = await post('/api/auth/local', { identifier: victim.email, password: PASSWORD });
    expect(logIn.status).toBe(429);
    expect(logIn.body.error?.message).toMatch(LOCKED_LOG_IN);
    expect(logIn.body.jwt).toBeUndefined();
    expect((await change(PASSWORD)).status).toBe(429);
  });
});

describe('the log-in second step per client address', () => {
  it('one address gets AUTH_RATELIMIT_MAX (10) second steps a minute, whatever the tickets; another address is not held up', async () => {
    const from = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await requestFrom<{ error?: { message: string } }>(from, app.baseUrl, 'POST', '/api/auth/two-factor', {
        body: { ticket: `made-up-ticket-${i}-${'x'.repeat(30)}`, code: '123456' },
      });
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.error?.message).toMatch(/^Too many requests from your network\. Please try again in /);
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    const other = await requestFrom(freshClient(), app.baseUrl, 'POST', '/api/auth/two-factor', {
      body: { ticket: 'y'.repeat(43), code: '123456' },
    });
    expect(other.status).toBe(401);
  });
});
