import { expect } from 'vitest';
import { emailChangeMessages } from '../../src/contract/emailChange';
import { lockedMessage } from '../../src/security/login-throttle';
import { emailMessages } from '../../src/contract/fieldRules';
import { CONTROL_CHARACTER } from '../../src/middlewares/input-rules';

/**
 * The e-mail change attacks (issue 28), made the same way against one in-process server on SQLite and
 * against two instances on PostgreSQL: the site used to mail an outside address over and over, and
 * addresses the mail queue cannot send to. Each proves its outcome by re-reading the queue, the
 * outbox and the members' rows, not by the answers alone.
 */

export interface Answer {
  status: number;
  message: string | undefined;
  retryAfter: string | undefined;
  body: { jwt?: string; user?: { id: number }; error?: { message: string } };
}

export interface AttackSurface {
  /** Signs a member up on the i-th instance (i modulo their number): the scaffold's sign-up. */
  register(i: number, username: string): Promise<Member>;
  /** The i-th request of a test: spread over the instances (i modulo their number). */
  call(i: number, method: string, path: string, options?: { body?: unknown; token?: string }): Promise<Answer>;
  /** Rows of the mail queue to `address` (any status), of one kind or all. */
  queuedTo(address: string, kind?: string): Promise<number>;
  /** All rows of the mail queue. */
  queued(): Promise<number>;
  /** Messages the outbox holds for `address`, once the queue has delivered what it holds for it. */
  deliveredTo(address: string): Promise<number>;
  /** The member's stored address and pending change. */
  stored(id: number): Promise<{ email: string; pending_email: string | null }>;
  /** Accounts with exactly this address. */
  accountsWith(email: string): Promise<number>;
}

/** The default limits (config/security.ts): the tests boot with them. */
export const PER_MEMBER_PER_HOUR = 3;
export const PER_ADDRESS_PER_DAY = 3;

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter += 1)}`;

export interface Member {
  id: number;
  jwt: string;
  email: string;
  password: string;
}

export const register = (surface: AttackSurface, i = 0): Promise<Member> => surface.register(i, `mailer${unique()}`);

export const askForChange = (surface: AttackSurface, i: number, who: Member, newEmail: string) =>
  surface.call(i, 'PUT', `/api/users/${who.id}`, { token: who.jwt, body: { email: newEmail, currentPassword: who.password } });

const REFUSALS = [emailChangeMessages.tooManyRequests, emailChangeMessages.tooManyToAddress];

/** A 429 in the member's words, saying when to try again, with the same wait in Retry-After. */
function expectRefusal(answer: Answer, which?: (typeof REFUSALS)[number]): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  const wait = Number(answer.retryAfter);
  expect(wait).toBeGreaterThan(0);
  expect(wait).toBeLessThanOrEqual(24 * 60 * 60);
  const expected = (which ? [which] : REFUSALS).map((message) => message(wait));
  expect(expected).toContain(answer.message);
}

/** One member fires 20 requests for one outside address at once: the hourly budget lets 3 through, and only 3 mails go there. */
export async function burstFromOneMember(surface: AttackSurface): Promise<void> {
  const member = await register(surface);
  const target = `victim-${unique()}@outside.example.org`;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => askForChange(surface, i, member, target)));

  const accepted = answers.filter((answer) => answer.status === 200);
  expect(accepted).toHaveLength(PER_MEMBER_PER_HOUR);
  // The current password is counted before it is checked (docs/security.md#rate-limits): with more than the
  // password budget in flight at once, the extra ones are refused by it before they reach the e-mail limit.
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    if (refused.status === 429 && refused.message === lockedMessage(Number(refused.retryAfter))) continue;
    expectRefusal(refused, emailChangeMessages.tooManyRequests);
  }

  expect(await surface.queuedTo(target)).toBe(PER_MEMBER_PER_HOUR);
  expect(await surface.deliveredTo(target)).toBe(PER_MEMBER_PER_HOUR);
  // The notices to the member's own address: one per accepted request, no more.
  expect(await surface.queuedTo(member.email, 'email-change')).toBe(PER_MEMBER_PER_HOUR);
  expect(await surface.stored(member.id)).toEqual({ email: member.email, pending_email: target });

  // Later in the hour, even one more is refused, and nothing more is queued.
  expectRefusal(await askForChange(surface, 0, member, target), emailChangeMessages.tooManyRequests);
  expect(await surface.queuedTo(target)).toBe(PER_MEMBER_PER_HOUR);
}

/**
 * Two members aim at one outside address at once (5 requests each, spread over the instances): the
 * address's daily budget is theirs together. A third member then gets the address's 429, also with a
 * "+tag" and other capitals (one mailbox), and nothing is written for them.
 */
export async function twoMembersShareTheAddressBudget(surface: AttackSurface): Promise<void> {
  const first = await register(surface);
  const second = await register(surface, 1);
  const target = `shared-${unique()}@outside.example.org`;
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => askForChange(surface, i, i % 2 ? second : first, target)));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(PER_ADDRESS_PER_DAY);
  for (const refused of answers.filter((answer) => answer.status !== 200)) expectRefusal(refused);
  expect(await surface.queuedTo(target)).toBe(PER_ADDRESS_PER_DAY);
  expect(await surface.deliveredTo(target)).toBe(PER_ADDRESS_PER_DAY);

  const third = await register(surface);
  const [local, domain] = target.split('@');
  for (const [i, variant] of [target, `${local}+again@${domain}`, target.toUpperCase()].entries()) {
    const refused = await askForChange(surface, i, third, variant);
    expectRefusal(refused, emailChangeMessages.tooManyToAddress);
    expect(await surface.queuedTo(variant)).toBe(variant === target ? PER_ADDRESS_PER_DAY : 0);
  }
  expect(await surface.stored(third.id)).toEqual({ email: third.email, pending_email: null });
  expect(await surface.queuedTo(third.email, 'email-change')).toBe(0);
}

/** Different addresses do not buy a member a fresh budget: the 4th in the hour is refused, and mails nobody. */
export async function oneMemberManyAddresses(surface: AttackSurface): Promise<void> {
  const member = await register(surface);
  const targets = [1, 2, 3, 4].map((n) => `spread${n}-${unique()}@outside.example.org`);
  for (const [i, target] of targets.slice(0, PER_MEMBER_PER_HOUR).entries()) {
    expect((await askForChange(surface, i, member, target)).status).toBe(200);
  }
  expectRefusal(await askForChange(surface, 1, member, targets[3]), emailChangeMessages.tooManyRequests);
  expect(await surface.queuedTo(targets[3])).toBe(0);
  expect(await surface.stored(member.id)).toEqual({ email: member.email, pending_email: targets[2] });
}

/**
 * Every route that takes an address answers each hostile one 400 in the spec's words (or the input
 * rules' 400 for a control character, which stops it first): nothing is saved, nobody is created, and
 * nothing is queued.
 */
export async function hostileAddressesRefused(surface: AttackSurface, addresses: readonly string[]): Promise<void> {
  const member = await register(surface);
  const queuedBefore = await surface.queued();
  const expectBadRequest = (answer: Answer, address: string, message: string, route: string) => {
    expect(answer.status, `${route} ${JSON.stringify(address)}: ${JSON.stringify(answer.body)}`).toBe(400);
    if (CONTROL_CHARACTER.test(address)) expect(answer.message).toMatch(/^The request body contains a character that is not allowed/);
    else expect(answer.message, `${route} ${JSON.stringify(address)}`).toBe(message);
  };

  for (const [i, address] of addresses.entries()) {
    const username = `hostile${unique()}`;
    const registered = await surface.call(i, 'POST', '/api/auth/local/register', {
      body: { username, email: address, password: `${username}-Pass-1` },
    });
    expectBadRequest(registered, address, emailMessages.invalid, 'register');
    expect(await surface.accountsWith(address)).toBe(0);

    expectBadRequest(await askForChange(surface, i + 1, member, address), address, emailMessages.invalidFormat, 'profile update');

    for (const route of ['/api/auth/forgot-password', '/api/auth/send-email-confirmation']) {
      expectBadRequest(await surface.call(i, 'POST', route, { body: { email: address } }), address, emailMessages.invalid, route);
    }
  }

  expect(await surface.stored(member.id)).toEqual({ email: member.email, pending_email: null });
  expect(await surface.queued()).toBe(queuedBefore);
}
