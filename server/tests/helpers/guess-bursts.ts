import { expect } from 'vitest';
import { TOTP } from 'otpauth';
import { requestFrom } from './strapi';
import { freshClient, type Cluster } from './instances';
import { signUp, type Member } from './members';
import { twoFactorMessages } from '../../src/contract/twoFactor';
import { profileMessages } from '../../src/contract/profileRules';

/**
 * Bursts of concurrent wrong guesses against one member (docs/security.md#rate-limits), shared by the
 * SQLite (one process) and the PostgreSQL (two instances) tests: 60 guesses fired at once, spread
 * over the instances, each from a client address of its own (the per-address limits stay out of the
 * way). Each scenario answers how many guesses were CHECKED, by counting the answers that say "wrong"
 * (a locked attempt answers 429 unchecked); the in-process test also counts the comparisons made.
 * Each then tries the right secret and re-reads the victim's rows.
 */

export const BURST = 60;
/** The log-in throttle's budget per account (src/security/login-throttle.ts FAILURES_ALLOWED). */
export const ACCOUNT_BUDGET = 10;
/** Wrong codes one ticket takes (api/two-factor TICKET_MAX_FAILURES). */
export const TICKET_BUDGET = 5;

export const LOCKED_LOG_IN = /^Too many failed log-in attempts\. Try again in \d+ minutes? or reset your password\.$/;
export const LOCKED_CODES = /^Too many wrong codes\. Try again in \d+ minutes?\.$/;

export interface BurstTarget {
  /** The instances' base URLs: guess i goes to urls[i % urls.length]. */
  urls: string[];
  /** One row of SQL with `?` placeholders, or undefined. */
  row<T>(sql: string, values: unknown[]): Promise<T | undefined>;
  /** A loopback address no other request used. */
  client(): string;
  /** Told when a burst starts (true) and ends (false): an in-process test counts the checks made in between. */
  recording?(on: boolean): void;
}

/** The target of a cluster (instances.ts): its instances, rows from its schema, a fresh client address a guess. */
export function clusterTarget(cluster: Cluster): BurstTarget {
  return {
    urls: cluster.instances.map((instance) => instance.baseUrl),
    async row<T>(sql: string, values: unknown[]) {
      let n = 0;
      return (
        await cluster.sql<T>(
          sql.replace(/\?/g, () => `$${++n}`),
          values,
        )
      )[0];
    },
    client: freshClient,
  };
}

export type Answer = {
  status: number;
  body: Record<string, unknown> & { jwt?: string; ticket?: string; error?: { message: string }; user?: { id: number } };
  headers: Record<string, unknown>;
};

export const PASSWORD = 'Burst-Victim-Passw0rd';

export function bursts(target: BurstTarget) {
  const call = (i: number, method: string, urlPath: string, options: { body?: unknown; token?: string } = {}) =>
    requestFrom<Answer['body']>(target.client(), target.urls[i % target.urls.length], method, urlPath, options) as Promise<Answer>;
  const fire = async (guess: (i: number) => Promise<Answer>) => {
    target.recording?.(true);
    try {
      return await Promise.all(Array.from({ length: BURST }, (_, i) => guess(i)));
    } finally {
      target.recording?.(false);
    }
  };
  /** How many answers carry `message` (a checked, wrong guess); the rest must be the lock's 429. */
  const tally = (answers: Answer[], wrongMessage: string, locked: RegExp) => {
    const checked = answers.filter((res) => res.status === 400 && res.body.error?.message === wrongMessage).length;
    const refused = answers.filter((res) => res.status === 429 && locked.test(res.body.error?.message ?? '')).length;
    const other = answers.filter((res) => !(res.status === 400 && res.body.error?.message === wrongMessage) && res.status !== 429);
    return { checked, refused, other: other.map((res) => [res.status, res.body.error?.message]) };
  };

  let count = 0;
  function register(prefix: string): Promise<Member> {
    count += 1;
    return signUp(target.urls[0], `${prefix}${count}x${Date.now() % 100000}`, {
      email: `${prefix}${count}.${Date.now()}@example.com`,
      password: PASSWORD,
      from: target.client(),
    });
  }

  const codeAt = (secret: string, steps = 0) =>
    TOTP.generate({ secret: new TOTP({ secret }).secret, timestamp: Date.now() + steps * 30_000 });
  /** Codes no window around now accepts. */
  const wrongCodes = (secret: string) => {
    const good = new Set([-2, -1, 0, 1, 2].map((step) => codeAt(secret, step)));
    const codes: string[] = [];
    for (let n = 100_000; codes.length < BURST; n += 7_919)
      if (!good.has(String(n % 1_000_000).padStart(6, '0'))) codes.push(String(n % 1_000_000).padStart(6, '0'));
    return codes;
  };
  async function awayFromStepEdge() {
    const left = 30_000 - (Date.now() % 30_000);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
  }

  async function enrolled(prefix: string) {
    const member = await register(prefix);
    const setup = await call(0, 'POST', '/api/two-factor/setup', { token: member.jwt });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    const secret = setup.body.secret as string;
    await awayFromStepEdge();
    const enabled = await call(1, 'POST', '/api/two-factor/enable', { token: member.jwt, body: { code: codeAt(secret) } });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    return { ...member, secret };
  }

  async function ticketOf(email: string, i = 0): Promise<string> {
    const res = await call(i, 'POST', '/api/auth/local', { body: { identifier: email, password: PASSWORD } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ticket).toEqual(expect.any(String));
    return res.body.ticket!;
  }

  const userRow = (id: number) =>
    target.row<{ email: string; password: string; pending_email: string | null }>(
      'SELECT email, password, pending_email FROM up_users WHERE id = ?',
      [id],
    );
  const enrolmentRow = (id: number) =>
    target.row<{ secret: string; enabled_at: unknown; last_step: unknown }>(
      'SELECT secret, enabled_at, last_step FROM two_factors WHERE user_id = ?',
      [id],
    );
  const countOf = async (sql: string, id: number) => Number((await target.row<{ n: unknown }>(sql, [id]))?.n ?? 0);
  const sessions = (id: number) => countOf('SELECT count(*) AS n FROM member_sessions WHERE member_id = ?', id);
  const unusedRecoveryCodes = (id: number) =>
    countOf('SELECT count(*) AS n FROM two_factor_recovery_codes WHERE user_id = ? AND used_at IS NULL', id);

  return {
    register,
    enrolled,
    ticketOf,
    codeAt,
    wrongCodes,

    /** 60 wrong passwords at once for one account, and for an identifier no account has; then the right one. */
    async logIn() {
      const victim = await register('burstlogin');
      const sessionsBefore = await sessions(victim.id);
      const known = await fire((i) => call(i, 'POST', '/api/auth/local', { body: { identifier: victim.email, password: `Wrong-${i}` } }));
      const unknown = await fire((i) =>
        call(i, 'POST', '/api/auth/local', { body: { identifier: `nobody.${victim.email}`, password: `Wrong-${i}` } }),
      );
      const right = await call(1, 'POST', '/api/auth/local', { body: { identifier: victim.email, password: PASSWORD } });
      return {
        known: tally(known, 'Invalid identifier or password', LOCKED_LOG_IN),
        unknown: tally(unknown, 'Invalid identifier or password', LOCKED_LOG_IN),
        right,
        victim,
        sessionsBefore,
        sessionsAfter: await sessions(victim.id),
      };
    },

    /** 60 wrong current passwords at once on change-password with the victim's stolen session; then the right one. */
    async changePassword() {
      const victim = await register('burstchange');
      const before = await userRow(victim.id);
      const newPassword = 'Attacker-Passw0rd-1';
      const body = (currentPassword: string) => ({ currentPassword, password: newPassword, passwordConfirmation: newPassword });
      const answers = await fire((i) => call(i, 'POST', '/api/auth/change-password', { token: victim.jwt, body: body(`Wrong-${i}`) }));
      const right = await call(1, 'POST', '/api/auth/change-password', { token: victim.jwt, body: body(PASSWORD) });
      return {
        ...tally(answers, profileMessages.currentPasswordInvalid, LOCKED_LOG_IN),
        right,
        victim,
        before,
        after: await userRow(victim.id),
      };
    },

    /** 60 wrong current passwords at once on an e-mail change with the victim's stolen session; then the right one. */
    async emailChange() {
      const victim = await register('burstemail');
      const before = await userRow(victim.id);
      const change = (i: number, currentPassword: string) =>
        call(i, 'PUT', `/api/users/${victim.id}`, {
          token: victim.jwt,
          body: { email: `attacker.${i}.${victim.id}@example.com`, currentPassword },
        });
      const answers = await fire((i) => change(i, `Wrong-${i}`));
      const right = await change(1, PASSWORD);
      return {
        ...tally(answers, profileMessages.currentPasswordInvalid, LOCKED_LOG_IN),
        right,
        victim,
        before,
        after: await userRow(victim.id),
      };
    },

    /** 60 wrong passwords at once on /api/two-factor/disable (with a right-looking code); then the right password and code. */
    async disable() {
      const victim = await enrolled('burstdisable');
      const before = await enrolmentRow(victim.id);
      const answers = await fire((i) =>
        call(i, 'POST', '/api/two-factor/disable', { token: victim.jwt, body: { password: `Wrong-${i}`, code: '123456' } }),
      );
      await awayFromStepEdge();
      const right = await call(1, 'POST', '/api/two-factor/disable', {
        token: victim.jwt,
        body: { password: PASSWORD, code: codeAt(victim.secret, 1) },
      });
      return {
        ...tally(answers, twoFactorMessages.wrongPassword, LOCKED_LOG_IN),
        right,
        victim,
        before,
        after: await enrolmentRow(victim.id),
        recoveryCodes: await unusedRecoveryCodes(victim.id),
      };
    },

    /** 60 wrong codes at once on the log-in's second step, over 12 tickets (5 each); then the right code on a new ticket. */
    async codesPerAccount() {
      const victim = await enrolled('burstcodes');
      const tickets: string[] = [];
      for (let i = 0; i < BURST / TICKET_BUDGET; i += 1) tickets.push(await ticketOf(victim.email, i));
      const codes = wrongCodes(victim.secret);
      const sessionsBefore = await sessions(victim.id);
      const answers = await fire((i) =>
        call(i, 'POST', '/api/auth/two-factor', { body: { ticket: tickets[i % tickets.length], code: codes[i] } }),
      );
      await awayFromStepEdge();
      const right = await call(0, 'POST', '/api/auth/two-factor', {
        body: { ticket: await ticketOf(victim.email, 1), code: codeAt(victim.secret, 1) },
      });
      return {
        ...tally(answers, twoFactorMessages.wrongCode, LOCKED_CODES),
        right,
        victim,
        sessionsBefore,
        sessionsAfter: await sessions(victim.id),
        enrolment: await enrolmentRow(victim.id),
        recoveryCodes: await unusedRecoveryCodes(victim.id),
      };
    },

    /** 60 wrong codes at once on one ticket; then the right code on that ticket. */
    async codesPerTicket() {
      const victim = await enrolled('burstticket');
      const ticket = await ticketOf(victim.email);
      const codes = wrongCodes(victim.secret);
      const sessionsBefore = await sessions(victim.id);
      const answers = await fire((i) => call(i, 'POST', '/api/auth/two-factor', { body: { ticket, code: codes[i] } }));
      await awayFromStepEdge();
      const right = await call(1, 'POST', '/api/auth/two-factor', { body: { ticket, code: codeAt(victim.secret, 1) } });
      const checked = answers.filter((res) => res.status === 400 && res.body.error?.message === twoFactorMessages.wrongCode).length;
      // A ticket past its budget says so ("Too many wrong codes"); one used meanwhile, that it expired.
      const voidMessages: unknown[] = [twoFactorMessages.ticketBurnt, twoFactorMessages.ticketExpired];
      const voided = answers.filter((res) => res.status === 401 && voidMessages.includes(res.body.error?.message)).length;
      return { checked, voided, right, victim, sessionsBefore, sessionsAfter: await sessions(victim.id) };
    },
  };
}
