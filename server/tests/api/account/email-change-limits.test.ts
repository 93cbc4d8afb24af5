import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import { request } from '../../helpers/strapi';
import { createOutboxReader } from '../../helpers/outbox';
import { mailQueueOf, settleMail } from '../../helpers/mail-queue';
import {
  burstFromOneMember,
  hostileAddressesRefused,
  oneMemberManyAddresses,
  twoMembersShareTheAddressBudget,
  type AttackSurface,
} from '../../helpers/email-change-attacks';
import { HOSTILE_ADDRESSES } from '../../helpers/addresses';
import { emailMessages } from '../../../src/contract/fieldRules';

/**
 * E-mail change limits and the one address rule (docs/security.md#e-mail-change-limits,
 * #e-mail-addresses), attacked on one in-process server on SQLite (the limits in its memory).
 * The same attacks on two instances: email-change-limits-cluster.test.ts.
 */

const USERS = 'plugin::users-permissions.user';
const MESSAGES = 'api::email-message.email-message';

let app: TestApp;

const surface: AttackSurface = {
  register: (_i, username) => app.register(username),
  async call(_i, method, urlPath, options = {}) {
    const res = await request<{ error?: { message: string } }>(app.baseUrl, method, urlPath, options);
    return {
      status: res.status,
      message: res.body?.error?.message,
      retryAfter: res.headers.get('retry-after') ?? undefined,
      body: res.body,
    };
  },
  queuedTo: (address, kind) => app.strapi.db.query(MESSAGES).count({ where: { to: address, ...(kind ? { kind } : {}) } }),
  queued: () => app.strapi.db.query(MESSAGES).count({}),
  async deliveredTo(address) {
    await settleMail(app.strapi);
    return createOutboxReader(app.outboxDir).take(address).length;
  },
  stored: async (id) => (await app.strapi.db.query(USERS).findOne({ where: { id }, select: ['email', 'pending_email'] })) as never,
  accountsWith: (email) => app.strapi.db.query(USERS).count({ where: { email } }),
};

beforeAll(async () => {
  // The auth routes' own limits are not under test here (registrations and refused addresses are many).
  app = await boot({ outbox: true, limits: 'raised' });
});

afterAll(async () => {
  await app?.stop();
});

describe('e-mail change requests are limited per member and per target address (SQLite, one process)', () => {
  it('20 concurrent requests of one member for one address: 3 go through, 3 mails reach it, the rest answer 429 saying when', () =>
    burstFromOneMember(surface));

  it('two members aiming at one address share its daily budget, "+tag" and capitals included', () =>
    twoMembersShareTheAddressBudget(surface));

  it('other addresses do not give a member a fresh budget', () => oneMemberManyAddresses(surface));
});

describe('addresses the mail queue cannot send to', () => {
  it('every route that takes an address refuses each hostile one with 400; nothing is saved, created or queued', () =>
    hostileAddressesRefused(surface, HOSTILE_ADDRESSES));

  it('the queue itself refuses them by the same rule (400, no row), should a caller ever skip its check', async () => {
    const before = await surface.queued();
    for (const to of HOSTILE_ADDRESSES) {
      await expect(mailQueueOf(app.strapi).enqueue({ kind: 'other', to, subject: 'Hi', text: 'Hi' })).rejects.toMatchObject({
        name: 'ValidationError',
        message: emailMessages.invalidFormat,
      });
    }
    expect(await surface.queued()).toBe(before);
  });
});
