import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import Stripe from 'stripe';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { boot, type TestApp } from '../../helpers/app';
import type { Member } from '../../helpers/members';
import { request } from '../../helpers/strapi';
import type { ApiError } from '../../helpers/types';
import { startStripeDouble, type StripeDouble } from '../../helpers/stripe-double';
import {
  billingMessages,
  type AccountExport,
  type CardOnFileResponse,
  type Invoice,
  type InvoicesResponse,
} from '../../../src/contract/billing';
import type { CurrentSubscription } from '../../../src/contract/subscriptions';
import { SandboxGateway, addInterval } from '../../../src/payments';

const require = createRequire(import.meta.url);
const sharp = require('sharp') as typeof import('sharp').default;

/**
 * Issue 11, member self-service: billing history and receipts, portal / card update, resume, data
 * export. Each ownership property is tested by attacking and re-reading the victim's data.
 */

const USERS = 'plugin::users-permissions.user';
const SUBS = 'api::subscription.subscription';
const PUBLIC_URL = 'http://carnivo.test';
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' };

let app: TestApp;
const register = (username: string) => app.register(username);
const invoices = (token: string | undefined, query = '') =>
  request<InvoicesResponse & Pick<ApiError, 'error'>>(app.baseUrl, 'GET', `/api/subscriptions/invoices${query}`, { token });
const current = (token: string) => request<CurrentSubscription | null>(app.baseUrl, 'GET', '/api/subscriptions/current', { token });
const resume = (token?: string) => request<CurrentSubscription & ApiError>(app.baseUrl, 'POST', '/api/subscriptions/resume', { token });
const cancel = (token: string) => request(app.baseUrl, 'POST', '/api/subscriptions/cancel', { token });
const cardOnFile = (token?: string, query = '') =>
  request<CardOnFileResponse & ApiError>(app.baseUrl, 'GET', `/api/subscriptions/card${query}`, { token });
const portal = (token?: string) => request<{ url: string } & ApiError>(app.baseUrl, 'POST', '/api/subscriptions/portal', { token });
const exportData = (token?: string) => request<AccountExport & ApiError>(app.baseUrl, 'GET', '/api/account/export', { token });
const customerOf = async (userId: number) =>
  ((await app.strapi.db.query(USERS).findOne({ where: { id: userId } })) as { stripeCustomerId: string | null }).stripeCustomerId;

describe('sandbox mode', () => {
  let alice: Member;
  let bob: Member;
  const store = () => app.strapi.store({ type: 'core', name: 'payments_sandbox' });
  const sandbox = () => app.strapi.service('api::payment.gateway').get() as SandboxGateway;
  const clock = () => sandbox() as unknown as { now: () => Date };
  const updateCard = (token: string | undefined, body: unknown) =>
    request<{ ok: true; last4: string } & ApiError>(app.baseUrl, 'POST', '/api/payments/sandbox/card', { token, body });
  // Relative to the site (the page is served by this server, whatever PUBLIC_URL says).
  const receiptPath = (invoice: Invoice) => invoice.receiptUrl!;
  /** A built SPA's shell, for the stylesheet the server-rendered pages link. */
  let spaDir: string;
  const SITE_CSS = '/assets/index-site.css';
  const subscribeAndPay = async (member: Member, priceId = 'price_sandbox_monthly') => {
    const created = await request<{ clientSecret: string; subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: member.jwt,
      body: { priceId },
    });
    expect(created.status).toBe(200);
    const paid = await request(app.baseUrl, 'POST', '/api/payments/sandbox/confirm', {
      body: { clientSecret: created.body.clientSecret, ...CARD },
    });
    expect(paid.status).toBe(200);
    return created.body.subscriptionId;
  };

  beforeAll(async () => {
    spaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-self-service-spa-'));
    fs.writeFileSync(
      path.join(spaDir, 'index.html'),
      `<!doctype html><html><head><title>Carnivo</title><link rel="stylesheet" crossorigin href="${SITE_CSS}"></head><body><div id="root"></div></body></html>`,
    );
    app = await boot({
      limits: 'raised',
      env: {
        PAYMENTS_MODE: '',
        STRIPE_SECRET_KEY: '',
        STRIPE_PUBLISHABLE_KEY: '',
        STRIPE_WEBHOOK_SECRET: '',
        SPA_DIR: spaDir,
        PUBLIC_URL,
      },
    });
    alice = await register('selfalice');
    bob = await register('selfbob');
    await subscribeAndPay(alice);
    await subscribeAndPay(bob, 'price_sandbox_yearly');
  });

  afterAll(async () => {
    await app?.stop();
    if (spaDir) fs.rmSync(spaDir, { recursive: true, force: true });
  });

  it('answers 401 without a token on every member route', async () => {
    const all = [
      await invoices(undefined),
      await resume(),
      await portal(),
      await exportData(),
      await updateCard(undefined, CARD),
      await cardOnFile(),
    ];
    for (const res of all) {
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('Not authenticated');
    }
  });

  it("lists the member's own invoice for the payment, with a receipt page of the sandbox", async () => {
    const mine = await invoices(alice.jwt);
    expect(mine.status).toBe(200);
    const now = (await current(alice.jwt)).body!;
    expect(mine.body.pagination).toEqual({ page: 1, pageSize: 10, hasMore: false });
    expect(mine.body.data).toEqual([
      {
        id: expect.stringMatching(/^in_sandbox_/),
        date: now.startDate,
        amount: 999,
        currency: 'usd',
        status: 'paid',
        periodStart: now.startDate,
        periodEnd: now.currentPeriodEnd,
        receiptUrl: expect.stringMatching(/^\/api\/payments\/sandbox\/receipts\/in_sandbox_/),
        pdfUrl: null,
        refunded: false,
        paidAt: now.startDate,
        subscriptionId: now.id,
      },
    ]);
    const receipt = await fetch(app.baseUrl + receiptPath(mine.body.data[0]));
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toMatch(/^text\/html/);
    expect(receipt.headers.get('cache-control')).toBe('no-store');
    const html = await receipt.text();
    expect(html).toContain('<h1>Carnivo receipt</h1>');
    expect(html).toContain('$9.99');
    expect(html).toContain('Carnivo Monthly');
    // The date as the member area writes it.
    const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(now.startDate!));
    expect(html).toContain(`<dt>Date</dt><dd>${longDate}</dd>`);
    // The site's look: its stylesheet, the header's logo and name linking home, a way back.
    expect(html).toContain(`<link rel="stylesheet" crossorigin href="${SITE_CSS}">`);
    expect(html).toContain('<a href="/" class="brand"><img src="/favicon.svg" alt="" width="32" height="32"><span>Carnivo</span></a>');
    expect(html).toContain('<a href="/">Back to Carnivo</a>');
    // Nothing that names the member.
    expect(html).not.toContain('selfalice');
    expect(html).not.toContain('example.com');

    // Bob's list is his alone (the yearly plan); the query cannot point at another customer.
    const bobs = await invoices(bob.jwt, `?customer=${await customerOf(alice.id)}`);
    expect(bobs.body.data.map((i) => i.amount)).toEqual([7999]);
    expect(bobs.body.data[0].id).not.toBe(mine.body.data[0].id);
    expect((await invoices(alice.jwt)).body).toEqual(mine.body);
  });

  it('serves no receipt to a guessed or altered id', async () => {
    const [invoice] = (await invoices(alice.jwt)).body.data;
    const [, hex, n, mac] = /^in_sandbox_([0-9a-f]{24})_(\d+)_([0-9a-f]{32})$/.exec(invoice.id)!;
    const flipped = mac.slice(0, -1) + (mac.endsWith('0') ? '1' : '0');
    const guesses = [
      `in_sandbox_${hex}_${n}_${flipped}`,
      `in_sandbox_${hex}_1_${mac}`,
      `in_sandbox_${hex}_${n}_${'0'.repeat(32)}`,
      `in_sandbox_${hex}_${n}`,
      `sub_sandbox_${hex}`,
    ];
    for (const id of guesses) {
      const res = await request<ApiError>(app.baseUrl, 'GET', `/api/payments/sandbox/receipts/${id}`);
      expect(res.status, id).toBe(404);
      expect(res.body.error.message).toBe('Receipt not found.');
    }
    // The real one still opens.
    expect((await fetch(app.baseUrl + receiptPath(invoice))).status).toBe(200);
  });

  it('records one invoice per renewal, paginates them 10 a page, newest first', async () => {
    const carol = await register('selfcarol');
    await subscribeAndPay(carol);
    const first = (await current(carol.jwt)).body!;
    const realNow = clock().now;
    // 25 renewals later (the sandbox renews lazily, when read).
    const later = addInterval(new Date(first.startDate!), 'month', 25);
    clock().now = () => new Date(later.getTime() + 60_000);
    try {
      const page1 = await invoices(carol.jwt);
      const page3 = await invoices(carol.jwt, '?page=3');
      expect(page1.body.pagination).toEqual({ page: 1, pageSize: 10, hasMore: true });
      expect(page3.body.pagination).toEqual({ page: 3, pageSize: 10, hasMore: false });
      expect(page3.body.data).toHaveLength(6);
      const all = [...page1.body.data, ...(await invoices(carol.jwt, '?page=2')).body.data, ...page3.body.data];
      expect(new Set(all.map((i) => i.id)).size).toBe(26);
      expect(all[0].periodStart).toBe(later.toISOString());
      expect(all[25].periodStart).toBe(first.startDate);
      for (let k = 0; k < 25; k += 1) expect(all[k].periodStart).toBe(all[k + 1].periodEnd);
      // Every instance derives the same invoices from the stored periods.
      expect((await invoices(carol.jwt)).body).toEqual(page1.body);
      expect((await invoices(carol.jwt, '?page=4')).body).toEqual({ data: [], pagination: { page: 4, pageSize: 10, hasMore: false } });
    } finally {
      clock().now = realNow;
    }
  });

  it('refuses a bad page with 400 and a message', async () => {
    for (const query of ['?page=0', '?page=abc', '?page=1001', '?page=-1', '?page=1.5', '?page[a]=1', '?page=1&page=2']) {
      const res = await invoices(alice.jwt, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.message).toBe('page must be a whole number from 1 to 1000.');
    }
  });

  it('has no billing portal in sandbox mode (409), and an empty history before any purchase', async () => {
    const res = await portal(alice.jwt);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toMatch(/sandbox mode/);
    const dave = await register('selfdave');
    expect((await invoices(dave.jwt)).body).toEqual({ data: [], pagination: { page: 1, pageSize: 10, hasMore: false } });
  });

  it("replaces the member's own card on file, with the sandbox's test-card rules", async () => {
    const cardOf = async (userId: number) =>
      ((await store().get({ key: `cus:${await customerOf(userId)}` })) as { card?: { last4: string } }).card;
    const bobsBefore = await cardOf(bob.id);
    expect(bobsBefore).toEqual({ brand: 'visa', last4: '4242', expiry: '12/34' });

    const declined = await updateCard(alice.jwt, { ...CARD, cardNumber: '4000 0000 0000 0002' });
    expect(declined.status).toBe(402);
    expect(declined.body.error.message).toBe('Your card was declined.');
    const invalid = await updateCard(alice.jwt, { ...CARD, cardNumber: '1234 5678 9012 3456' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toBe('Your card number is incorrect.');
    const expired = await updateCard(alice.jwt, { ...CARD, expiry: '01/20' });
    expect(expired.status).toBe(400);
    expect((await updateCard(alice.jwt, [])).status).toBe(400);

    const ok = await updateCard(alice.jwt, { ...CARD, expiry: '11/33' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ ok: true, last4: '4242' });
    expect(await cardOf(alice.id)).toEqual({ brand: 'visa', last4: '4242', expiry: '11/33' });
    // Bob's card on file is untouched.
    expect(await cardOf(bob.id)).toEqual(bobsBefore);

    const nobody = await register('selferin');
    const none = await updateCard(nobody.jwt, CARD);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe('You have no billing account yet. Subscribe to a plan first.');
  });

  it("shows the member's own card on file: the paying card, a new one after an update, the old one after a decline", async () => {
    const hank = await register('selfhank');
    expect((await cardOnFile(hank.jwt)).body).toEqual({ card: null });
    await subscribeAndPay(hank);
    const visa = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };
    expect((await cardOnFile(hank.jwt)).body).toEqual({ card: visa });

    // Another test number, so that the change shows.
    expect((await updateCard(hank.jwt, { cardNumber: '5555 5555 5555 4444', expiry: '03/31', cvc: '123' })).status).toBe(200);
    const mastercard = { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 };
    expect((await cardOnFile(hank.jwt)).body).toEqual({ card: mastercard });

    // A declined or incorrect card leaves the card on file as it was.
    expect((await updateCard(hank.jwt, { ...CARD, cardNumber: '4000 0000 0000 0002' })).status).toBe(402);
    expect((await updateCard(hank.jwt, { ...CARD, cardNumber: '4242 4242 4242 4241' })).status).toBe(400);
    expect((await cardOnFile(hank.jwt)).body).toEqual({ card: mastercard });

    // 15 digits and a 4-digit code: American Express.
    expect((await updateCard(hank.jwt, { cardNumber: '3782 822463 10005', expiry: '7/32', cvc: '1234' })).status).toBe(200);
    expect((await cardOnFile(hank.jwt)).body).toEqual({ card: { brand: 'amex', last4: '0005', expMonth: 7, expYear: 2032 } });
  });

  it("never shows another member's card, whatever the request names", async () => {
    const ivy = await register('selfivy');
    await subscribeAndPay(ivy);
    expect((await updateCard(ivy.jwt, { cardNumber: '6011 1111 1111 1117', expiry: '05/33', cvc: '123' })).status).toBe(200);
    const ivysCard = { brand: 'discover', last4: '1117', expMonth: 5, expYear: 2033 };
    const bobsCard = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };
    const ivysCustomer = (await customerOf(ivy.id))!;
    for (const query of ['', `?customer=${ivysCustomer}`, `?userId=${ivy.id}`, `?id=${ivy.id}`]) {
      const res = await cardOnFile(bob.jwt, query);
      expect(res.status, query).toBe(200);
      expect(res.body, query).toEqual({ card: bobsCard });
    }
    // Re-read: Ivy's card is hers, and Bob's reading changed neither.
    expect((await cardOnFile(ivy.jwt)).body).toEqual({ card: ivysCard });
    expect((await cardOnFile(bob.jwt)).body).toEqual({ card: bobsCard });
    // A member without a billing account sees none, not someone else's.
    expect((await cardOnFile((await register('selfjack')).jwt)).body).toEqual({ card: null });
  });

  it('names the network of a card saved before brands were stored, from its test number', async () => {
    const kim = await register('selfkim');
    await subscribeAndPay(kim);
    const key = `cus:${await customerOf(kim.id)}`;
    const stored = (await store().get({ key })) as Record<string, unknown>;
    await store().set({ key, value: { ...stored, card: { last4: '4444', expiry: '09/30' } } });
    expect((await cardOnFile(kim.jwt)).body).toEqual({ card: { brand: 'mastercard', last4: '4444', expMonth: 9, expYear: 2030 } });
  });

  it('resumes a subscription set to cancel at period end, and only that', async () => {
    const nothing = await resume(alice.jwt);
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.message).toBe(billingMessages.nothingToResume);

    expect((await cancel(alice.jwt)).status).toBe(200);
    expect((await current(alice.jwt)).body!.cancel_at_period_end).toBe(true);
    const res = await resume(alice.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...(await current(alice.jwt)).body, cancel_at_period_end: false });
    expect((await sandbox().retrieveSubscription(res.body.id)).cancelAtPeriodEnd).toBe(false);
    // Bob's subscription, still active, is not touched by Alice's calls.
    expect((await current(bob.jwt)).body!.cancel_at_period_end).toBe(false);
    expect((await resume(alice.jwt)).status).toBe(409);
  });

  it('refuses to resume when a newer subscription already renews (no double billing)', async () => {
    const frank = await register('selffrank');
    const old = await subscribeAndPay(frank);
    expect((await cancel(frank.jwt)).status).toBe(200);
    await subscribeAndPay(frank, 'price_sandbox_yearly');
    const res = await resume(frank.jwt);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('You already have an active subscription.');
    expect((await sandbox().retrieveSubscription(old)).cancelAtPeriodEnd).toBe(true);
  });

  it("exports everything held about the member and nothing of anyone else's", async () => {
    const ingredients = (await app.strapi.documents('api::ingredient.ingredient').findMany({ limit: 2, sort: 'ingredient_name:asc' })) as {
      documentId: string;
      ingredient_name: string;
    }[];
    await app.strapi.documents(USERS).update({
      documentId: alice.documentId,
      data: {
        bmi: { height: 180.5, currentWeight: 82, Gender: 'Female', date_of_birth: '1990-05-01', idealBmiWeight: '70.2' },
        diet_preference: 'Ketovore',
        goal_weight: 75.5,
        goal_reminder: 'weekly',
        personal_goal_note: 'Stay strong',
        ingredients: ingredients.map((i) => i.documentId),
      } as never,
    });
    const form = new FormData();
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#b22222' } })
      .png()
      .toBuffer();
    form.append('files', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    for (const [k, v] of Object.entries({ refId: String(alice.id), ref: USERS, field: 'profile_picture' })) form.append(k, v);
    const upload = await fetch(`${app.baseUrl}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.jwt}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    const [picture] = (await upload.json()) as { url: string; formats?: Record<string, { url: string }> }[];

    // Issue 12's progress data: weight entries and the reminders sent, Alice's and Bob's.
    const addEntry = (jwt: string, date: string, weight: number) =>
      fetch(`${app.baseUrl}/api/weight-entries`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${jwt}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ date, weight }),
      });
    expect((await addEntry(alice.jwt, '2026-01-05', 84.5)).status).toBe(201);
    expect((await addEntry(bob.jwt, '2026-01-06', 99.9)).status).toBe(201);
    const claimedAt = new Date('2026-01-07T08:00:00.000Z');
    for (const [member, period] of [
      [alice, 'day:2026-01-07'],
      [bob, 'day:2026-01-08'],
    ] as const) {
      await app.strapi.db.query('api::reminder.reminder-send').create({
        data: { user: member.id, claim_key: `${member.id}:${period}`, period, claimed_at: claimedAt },
      });
    }

    const res = await fetch(`${app.baseUrl}/api/account/export`, { headers: { Authorization: `Bearer ${alice.jwt}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="carnivo-export-${today}.json"`);
    const text = await res.text();
    const data = JSON.parse(text) as AccountExport;
    const row = await app.strapi.db.query(USERS).findOne({ where: { id: alice.id } });
    expect(data.account).toEqual({
      id: alice.id,
      username: 'selfalice',
      email: 'selfalice@example.com',
      provider: 'local',
      confirmed: row.confirmed,
      createdAt: new Date(row.createdAt).toISOString(),
      updatedAt: new Date(row.updatedAt).toISOString(),
    });
    expect(data.profile).toEqual({
      bmi: { height: 180.5, currentWeight: 82, Gender: 'Female', date_of_birth: '1990-05-01', idealBmiWeight: '70.2' },
      diet_preference: 'Ketovore',
      interests: ingredients.map((i) => i.ingredient_name),
      goal_weight: 75.5,
      goal_reminder: 'weekly',
      personal_goal_note: 'Stay strong',
      unit_system: 'metric',
      reminders_enabled: true,
      pictureUrl: `${PUBLIC_URL}${picture.url}`,
    });
    const alicesEntries = await app.strapi.service('api::weight-entry.weight-entry').list(alice.id);
    expect(data.weightEntries).toEqual(alicesEntries);
    expect(data.weightEntries.map((entry) => [entry.date, entry.weight])).toContainEqual(['2026-01-05', 84.5]);
    expect(data.weightEntries.some((entry) => entry.weight === 99.9)).toBe(false);
    expect(data.goalReminders).toEqual([{ period: 'day:2026-01-07', sentAt: claimedAt.toISOString() }]);
    const subs = await app.strapi.db.query(SUBS).findMany({ where: { user: { id: alice.id } } });
    expect(data.subscriptions.map((s) => s.id)).toEqual(subs.map((s: { stripe_subscription_id: string }) => s.stripe_subscription_id));
    expect(data.subscriptions[0]).toMatchObject({ status: 'active', plan: 'Carnivo Monthly', cancel_at_period_end: false });
    expect(data.invoices).toEqual((await invoices(alice.jwt)).body.data);

    // No secrets, nothing of Bob's.
    const secrets = (await app.strapi.db.query(USERS).findOne({ where: { id: alice.id }, select: ['password'] })) as {
      password: string;
    };
    expect(text).not.toContain(secrets.password);
    expect(text).not.toMatch(/password|resetPasswordToken|confirmationToken|stripeCustomerId|sessions_valid_after/);
    expect(text).not.toContain('selfbob');
    const bobsSub = (await current(bob.jwt)).body!.id;
    expect(text).not.toContain(bobsSub);
    for (const invoice of (await invoices(bob.jwt)).body.data) expect(text).not.toContain(invoice.id);
    for (const url of [picture.url, ...Object.values(picture.formats ?? {}).map((f) => f.url)]) {
      fs.rmSync(path.join(app.strapi.dirs.static.public, url), { force: true });
    }
  });

  it('allows 5 exports an hour per member, then 429 with a message', async () => {
    // One was made above; four more pass.
    for (let i = 0; i < 4; i += 1) expect((await exportData(alice.jwt)).status).toBe(200);
    const limited = await exportData(alice.jwt);
    expect(limited.status).toBe(429);
    expect(limited.body.error.message).toBe(billingMessages.exportLimit);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another member's quota is their own.
    expect((await exportData(bob.jwt)).status).toBe(200);
  });

  it("removes the member's sandbox invoices with their account", async () => {
    const gina = await register('selfgina');
    await subscribeAndPay(gina);
    const customerId = (await customerOf(gina.id))!;
    const [invoice] = (await invoices(gina.jwt)).body.data;
    expect((await fetch(app.baseUrl + receiptPath(invoice))).status).toBe(200);
    const deleted = await request(app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: gina.jwt });
    expect(deleted.status).toBe(200);
    expect((await fetch(app.baseUrl + receiptPath(invoice))).status).toBe(404);
    expect(await sandbox().listInvoices(customerId, 0, 10)).toEqual({ invoices: [], hasMore: false });
    // Alice's are still there.
    expect((await invoices(alice.jwt)).body.data).toHaveLength(1);
  });
});

describe('Stripe mode, through the local Stripe double', () => {
  const WEBHOOK_SECRET = 'whsec_test_selfservice';
  const signer = new Stripe('sk_test_signer');
  let double: StripeDouble;
  let alice: Member;
  let bob: Member;
  let subId: string;
  let t0: number;

  const invoiceJson = (customer: string, n: number, overrides: Record<string, unknown> = {}) => ({
    id: `in_${customer}_${n}`,
    object: 'invoice',
    customer,
    created: 1_800_000_000 + n * 86_400,
    status: 'paid',
    amount_paid: 999,
    amount_due: 999,
    currency: 'usd',
    period_start: 1_800_000_000 + n * 86_400,
    period_end: 1_800_000_000 + n * 86_400,
    hosted_invoice_url: `https://invoice.stripe.test/${customer}/${n}`,
    invoice_pdf: `https://pay.stripe.test/${customer}/${n}.pdf`,
    lines: {
      object: 'list',
      data: [{ id: `il_${n}`, object: 'line_item', period: { start: 1_800_000_000 + n * 86_400, end: 1_802_592_000 + n * 86_400 } }],
    },
    ...overrides,
  });
  const subscriptionObject = (overrides: Record<string, unknown> = {}, priceId = 'price_test_monthly') => ({
    id: subId,
    object: 'subscription',
    customer: double.subscriptions.get(subId)!.customer,
    status: 'active',
    start_date: double.subscriptions.get(subId)!.start_date,
    cancel_at_period_end: false,
    cancel_at: null,
    items: {
      object: 'list',
      data: [{ id: 'si_1', object: 'subscription_item', price: { id: priceId }, current_period_end: 1_900_000_000 }],
    },
    ...overrides,
  });
  const send = async (id: string, type: string, created: number, object: unknown) => {
    const payload = JSON.stringify({ id, object: 'event', type, created, api_version: Stripe.API_VERSION, data: { object } });
    const res = await fetch(`${app.baseUrl}/api/payments/webhook`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Stripe-Signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      body: payload,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { outcome: string };
  };
  const subscribe = async (member: Member) => {
    const res = await request<{ subscriptionId: string }>(app.baseUrl, 'POST', '/api/subscriptions', {
      token: member.jwt,
      body: { priceId: 'price_test_monthly' },
    });
    expect(res.status).toBe(200);
    return res.body.subscriptionId;
  };

  beforeAll(async () => {
    double = await startStripeDouble();
    app = await boot({
      limits: 'raised',
      env: {
        PAYMENTS_MODE: '',
        ...double.env(WEBHOOK_SECRET),
        PUBLIC_URL,
      },
    });
    alice = await register('stripeselfalice');
    bob = await register('stripeselfbob');
    subId = await subscribe(alice);
    await subscribe(bob);
    t0 = Math.floor(Date.now() / 1000) + 5;
    const aliceCus = (await customerOf(alice.id))!;
    const bobCus = (await customerOf(bob.id))!;
    for (let n = 0; n < 12; n += 1) double.invoices.push(invoiceJson(aliceCus, n));
    double.invoices.push(
      invoiceJson(aliceCus, 12, { status: 'open', amount_paid: 0, amount_due: 999, invoice_pdf: null, hosted_invoice_url: null }),
    );
    double.invoices.push(invoiceJson(bobCus, 0, { amount_paid: 7999 }));
  });

  afterAll(async () => {
    await app?.stop();
    await double?.stop();
  });

  it("lists the member's Stripe invoices, newest first, 10 a page, mapped to the contract", async () => {
    const aliceCus = (await customerOf(alice.id))!;
    const before = double.requests.length;
    const page1 = await invoices(alice.jwt);
    expect(page1.status).toBe(200);
    expect(double.requests.slice(before).every((r) => r.path === '/v1/invoices' && r.params.customer === aliceCus)).toBe(true);
    expect(page1.body.pagination).toEqual({ page: 1, pageSize: 10, hasMore: true });
    expect(page1.body.data[0]).toEqual({
      id: `in_${aliceCus}_12`,
      date: new Date((1_800_000_000 + 12 * 86_400) * 1000).toISOString(),
      amount: 999,
      currency: 'usd',
      status: 'open',
      periodStart: new Date((1_800_000_000 + 12 * 86_400) * 1000).toISOString(),
      periodEnd: new Date((1_802_592_000 + 12 * 86_400) * 1000).toISOString(),
      receiptUrl: null,
      pdfUrl: null,
      refunded: false,
      // The test's invoices carry neither status_transitions nor parent.
      paidAt: null,
      subscriptionId: null,
    });
    expect(page1.body.data[1]).toMatchObject({
      id: `in_${aliceCus}_11`,
      status: 'paid',
      receiptUrl: `https://invoice.stripe.test/${aliceCus}/11`,
      pdfUrl: `https://pay.stripe.test/${aliceCus}/11.pdf`,
    });
    const page2 = await invoices(alice.jwt, '?page=2');
    expect(page2.body.pagination).toEqual({ page: 2, pageSize: 10, hasMore: false });
    expect(page2.body.data.map((i) => i.id)).toEqual([2, 1, 0].map((n) => `in_${aliceCus}_${n}`));

    const bobs = await invoices(bob.jwt);
    expect(bobs.body.data.map((i) => [i.id, i.amount])).toEqual([[`in_${await customerOf(bob.id)}_0`, 7999]]);
  });

  it("opens a Customer Portal session for the member's own customer, returning to the profile", async () => {
    const res = await portal(alice.jwt);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: double.portalSessions.at(-1)!.url });
    expect(double.portalSessions.at(-1)).toMatchObject({
      customer: await customerOf(alice.id),
      return_url: `${PUBLIC_URL}/profile?tab=subscriptions`,
    });

    const nobody = await register('stripeselfcarol');
    const none = await portal(nobody.jwt);
    expect(none.status).toBe(409);
    expect(none.body.error.message).toBe('You have no billing account yet. Subscribe to a plan first.');
  });

  it('hides the sandbox card update and receipts', async () => {
    const card = await request<ApiError>(app.baseUrl, 'POST', '/api/payments/sandbox/card', { token: alice.jwt, body: CARD });
    expect(card.status).toBe(404);
    expect((await request(app.baseUrl, 'GET', '/api/payments/sandbox/receipts/in_sandbox_x')).status).toBe(404);
  });

  it('keeps the record in step with the portal: cancel, resume, plan change, status', async () => {
    expect((await send('evt_ss_active', 'customer.subscription.updated', t0, subscriptionObject())).outcome).toBe('applied');
    expect((await current(alice.jwt)).body).toMatchObject({ id: subId, status: 'active', cancel_at_period_end: false });

    await send(
      'evt_ss_cancel',
      'customer.subscription.updated',
      t0 + 10,
      subscriptionObject({ cancel_at_period_end: true, cancel_at: 1_900_000_000 }),
    );
    expect((await current(alice.jwt)).body!.cancel_at_period_end).toBe(true);

    await send('evt_ss_resume', 'customer.subscription.updated', t0 + 20, subscriptionObject());
    expect((await current(alice.jwt)).body!.cancel_at_period_end).toBe(false);

    await send('evt_ss_plan', 'customer.subscription.updated', t0 + 30, subscriptionObject({}, 'price_test_yearly'));
    expect((await current(alice.jwt)).body!.plan).toMatchObject({ productName: 'Carnivo Yearly', interval: 'year', amount: 7999 });

    await send('evt_ss_pastdue', 'customer.subscription.updated', t0 + 40, subscriptionObject({ status: 'past_due' }, 'price_test_yearly'));
    expect((await current(alice.jwt)).body!.status).toBe('past_due');

    // A price that is none of our plans: no plan shown, rather than the old one.
    await send('evt_ss_unknown_price', 'customer.subscription.updated', t0 + 50, subscriptionObject({}, 'price_elsewhere'));
    expect((await current(alice.jwt)).body).toMatchObject({ status: 'active', plan: null });
    await send('evt_ss_back', 'customer.subscription.updated', t0 + 60, subscriptionObject());
    expect((await current(alice.jwt)).body!.plan).toMatchObject({ productName: 'Carnivo Monthly' });
  });

  it("two events of one second arriving out of order: Stripe's current state decides", async () => {
    // The member cancelled then resumed within a second; Stripe says it renews.
    Object.assign(double.subscriptions.get(subId)!, {
      status: 'active',
      cancel_at_period_end: false,
      cancel_at: null,
      current_period_end: 1_900_000_000,
    });
    await send('evt_ss_tie_resume', 'customer.subscription.updated', t0 + 70, subscriptionObject());
    const before = double.requests.length;
    const late = await send(
      'evt_ss_tie_cancel',
      'customer.subscription.updated',
      t0 + 70,
      subscriptionObject({ cancel_at_period_end: true, cancel_at: 1_900_000_000 }),
    );
    expect(late.outcome).toBe('applied');
    expect(double.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${subId}`]);
    expect((await current(alice.jwt)).body!.cancel_at_period_end).toBe(false);
  });

  it('resumes through Stripe (cancel_at_period_end: false)', async () => {
    // Bob's subscription (its events above are dated ahead, so Alice's local actions would be stale).
    const bobSub = (await app.strapi.db.query(SUBS).findOne({ where: { user: { id: bob.id } } })).stripe_subscription_id as string;
    Object.assign(double.subscriptions.get(bobSub)!, { status: 'active', current_period_end: 1_900_000_000 });
    expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${bobSub}/verify`, { token: bob.jwt })).status).toBe(200);
    expect((await cancel(bob.jwt)).status).toBe(200);
    expect(double.subscriptions.get(bobSub)!.cancel_at_period_end).toBe(true);
    const alicesBefore = { ...double.subscriptions.get(subId)! };

    const before = double.requests.length;
    const res = await resume(bob.jwt);
    expect(res.status).toBe(200);
    const updates = double.requests.slice(before).filter((r) => r.method === 'POST');
    expect(updates.map((r) => [r.path, r.params])).toEqual([[`/v1/subscriptions/${bobSub}`, { cancel_at_period_end: 'false' }]]);
    expect(double.subscriptions.get(bobSub)!.cancel_at_period_end).toBe(false);
    expect(res.body).toEqual((await current(bob.jwt)).body);
    expect(res.body).toMatchObject({ id: bobSub, status: 'active', cancel_at_period_end: false });
    expect((await resume(bob.jwt)).status).toBe(409);
    // Alice's subscription at Stripe is untouched.
    expect(double.subscriptions.get(subId)).toEqual(alicesBefore);
  });

  it('exports the Stripe invoices with the rest, only the member’s own', async () => {
    const res = await exportData(alice.jwt);
    expect(res.status).toBe(200);
    expect(res.body.invoices).toHaveLength(13);
    const aliceCus = (await customerOf(alice.id))!;
    expect(res.body.invoices.every((i) => i.id.startsWith(`in_${aliceCus}_`))).toBe(true);
    expect(res.body.subscriptions.map((s) => s.id)).toEqual([subId]);
    expect(JSON.stringify(res.body)).not.toContain((await customerOf(bob.id))!);
  });

  it("shows the card Stripe charges: the subscription's default, else the customer's; a declined card changes nothing", async () => {
    // The Customer Portal's calls, made here through the SDK as the portal makes them at Stripe.
    const portalClient = new Stripe('sk_test_portal', { host: '127.0.0.1', port: double.port, protocol: 'http', maxNetworkRetries: 0 });
    const dana = await register('stripeselfdana');
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: null });
    const danaSub = await subscribe(dana);
    const danaCus = (await customerOf(dana.id))!;
    // Nothing paid yet: no card anywhere.
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: null });

    // The first payment in the browser saves its card on the subscription (save_default_payment_method).
    Object.assign(double.subscriptions.get(danaSub)!, { status: 'active', default_payment_method: 'pm_card_visa' });
    expect((await request(app.baseUrl, 'GET', `/api/subscriptions/${danaSub}/verify`, { token: dana.jwt })).status).toBe(200);
    const before = double.requests.length;
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 } });
    const read = double.requests.slice(before);
    expect(read.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/subscriptions/${danaSub}`]);
    expect(Object.values(read[0].params)).toEqual(expect.arrayContaining(['default_payment_method']));

    // The portal's card update: attached, then the default of the customer and of the subscription.
    await portalClient.paymentMethods.attach('pm_card_mastercard', { customer: danaCus });
    await portalClient.customers.update(danaCus, { invoice_settings: { default_payment_method: 'pm_card_mastercard' } });
    await portalClient.subscriptions.update(danaSub, { default_payment_method: 'pm_card_mastercard' });
    const mastercard = { brand: 'mastercard', last4: '4444', expMonth: 3, expYear: 2031 };
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: mastercard });

    // A declined card is not saved: the card on file stays.
    await expect(portalClient.paymentMethods.attach('pm_card_chargeDeclined', { customer: danaCus })).rejects.toMatchObject({
      code: 'card_declined',
    });
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: mastercard });

    // The customer's default alone does not change what the subscription is charged to ...
    await portalClient.paymentMethods.attach('pm_card_amex', { customer: danaCus });
    await portalClient.customers.update(danaCus, { invoice_settings: { default_payment_method: 'pm_card_amex' } });
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: mastercard });
    // ... until the subscription has none of its own.
    await portalClient.subscriptions.update(danaSub, { default_payment_method: '' });
    expect((await cardOnFile(dana.jwt)).body).toEqual({ card: { brand: 'amex', last4: '8431', expMonth: 7, expYear: 2032 } });

    // Another member, naming Dana's customer or subscription, sees only their own (none saved).
    for (const query of ['', `?customer=${danaCus}`, `?subscription=${danaSub}`]) {
      expect((await cardOnFile(bob.jwt, query)).body, query).toEqual({ card: null });
    }
    expect((await cardOnFile(dana.jwt)).body.card?.brand).toBe('amex');
  });

  it.each([
    ['read the card on file', '/v1/customers', () => cardOnFile(bob.jwt)],
    ['list the invoices', '/v1/invoices', () => invoices(bob.jwt)],
  ] as const)('answers 502 with a message when Stripe cannot %s', async (_what, pathPrefix, call) => {
    double.failNext(500, { type: 'api_error', message: 'down' }, 3, { method: 'GET', pathPrefix });
    const res = await call();
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe('The payment service could not complete the request. Please try again later.');
    double.clearFailure();
  });
});
