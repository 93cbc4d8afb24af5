import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../src/escape-html';
import { MAIL_TEMPLATES, renderMail, type MailData, type MailKind } from '../../src/mail/send';
import { OWNER_EVENTS, type OwnerEvent } from '../../src/mail/owner-notice';

/**
 * Every kind of e-mail rendered from data a member controls, without Strapi: each part is there,
 * the data is in it, and the HTML part escapes it. A kind added to src/mail without a sample here
 * does not typecheck.
 */

const HOSTILE = `Eve <script>alert("x")</script> & 'co'`;
const link = (path: string) => `https://carnivo.test${path}?token=1.a&next="<b>"`;
const at = new Date('2026-11-27T16:05:42Z');
const device = { device: 'Linux computer', browser: 'Firefox' };

interface Sample<K extends MailKind> {
  data: MailData<K>;
  /** Values of the data the e-mail must carry (raw in the text, escaped in the HTML). */
  carries: string[];
}

const samples: { [K in MailKind]: Sample<K>[] } = {
  'password-reset': [
    {
      data: { username: HOSTILE, code: 'ABCDEFGH23', link: link('/reset-password'), expiresAt: at },
      carries: [HOSTILE, 'ABCDEFGH23', link('/reset-password'), '16:05 UTC'],
    },
  ],
  'refund-receipt': [
    {
      data: {
        username: HOSTILE,
        amount: 999,
        currency: 'usd',
        invoiceId: 'in_<1>',
        plan: 'Carnivo "Monthly"',
        refundedAt: at,
        subscriptionsUrl: link('/profile'),
      },
      carries: [HOSTILE, '$9.99 USD', 'in_<1>', 'Carnivo "Monthly"', '2026-11-27 16:05 UTC', link('/profile'), '5 to 10 business days'],
    },
    {
      data: { username: 'ann', amount: 7999, currency: 'usd', invoiceId: 'in_2', plan: null, refundedAt: at, subscriptionsUrl: link('/p') },
      carries: ['$79.99 USD', 'Your subscription has ended'],
    },
  ],
  'renewal-reminder': [
    {
      data: {
        username: HOSTILE,
        plan: 'Carnivo <Yearly>',
        amount: 7999,
        currency: 'usd',
        renewsAt: at,
        subscriptionsUrl: link('/profile'),
      },
      carries: [
        HOSTILE,
        'Carnivo <Yearly>',
        '$79.99 USD',
        'November 27, 2026 (2026-11-27 16:05 UTC)',
        link('/profile'),
        'unsubscribe before 2026-11-27 16:05 UTC',
      ],
    },
  ],
  'email-change-confirm': [
    {
      data: { username: HOSTILE, newEmail: 'new"<x>@example.com', confirmUrl: link('/email-change/confirm'), expiresAt: at },
      carries: [HOSTILE, 'new"<x>@example.com', link('/email-change/confirm'), '2026-11-27 16:05 UTC'],
    },
  ],
  'email-change-notice': [
    {
      data: {
        username: HOSTILE,
        oldEmail: 'old&@example.com',
        newEmail: 'new<x>@example.com',
        cancelUrl: link('/email-change/cancel'),
        at,
        device,
      },
      carries: [
        HOSTILE,
        'old&@example.com',
        'new<x>@example.com',
        link('/email-change/cancel'),
        '2026-11-27 16:05 UTC',
        'Firefox on Linux computer',
      ],
    },
  ],
  'sign-in-alert': [
    {
      data: { username: HOSTILE, device, at, securityUrl: link('/profile') },
      carries: [HOSTILE, 'Firefox on Linux computer', '2026-11-27 16:05 UTC', link('/profile')],
    },
  ],
  'goal-reminder': [
    {
      data: {
        username: HOSTILE,
        unit: 'metric',
        frequency: 'weekly',
        currentWeight: 90,
        goalWeight: 80,
        latest: [{ id: 1, date: '2026-11-20', weight: 90 }],
        profileUrl: link('/profile'),
        unsubscribeUrl: link('/api/reminders/unsubscribe'),
      },
      carries: [HOSTILE, 'weekly', '2026-11-20', link('/profile'), link('/api/reminders/unsubscribe')],
    },
  ],
  'owner-notice': (Object.keys(OWNER_EVENTS) as OwnerEvent[]).map((event) => ({
    data: {
      username: HOSTILE,
      event,
      at,
      device,
      resetUrl: link('/reset-password'),
      securityUrl: link('/profile'),
      contactUrl: link('/contact'),
    },
    carries: [
      HOSTILE,
      OWNER_EVENTS[event].what,
      '2026-11-27 16:05 UTC',
      'Firefox on Linux computer',
      ...(OWNER_EVENTS[event].help === 'reset' ? [link('/reset-password'), link('/profile')] : [link('/contact')]),
    ],
  })),
};

const cases = (Object.keys(MAIL_TEMPLATES) as MailKind[]).flatMap((kind) =>
  (samples[kind] as Sample<MailKind>[]).map((sample, index) => ({ name: `${kind} #${index + 1}`, kind, ...sample })),
);

describe('mail templates (src/mail)', () => {
  it('has a sample of every kind', () => {
    for (const kind of Object.keys(MAIL_TEMPLATES) as MailKind[]) expect(samples[kind].length, kind).toBeGreaterThan(0);
  });

  it.each(cases)('$name: subject, text and HTML carry the data, the HTML escaped', ({ kind, data, carries }) => {
    const mail = renderMail(kind, data);
    expect(mail.subject.trim()).not.toBe('');
    expect(mail.text.trim()).not.toBe('');
    expect(mail.html.trim()).not.toBe('');
    expect(mail.text).toContain('The Carnivo team');
    for (const value of carries) {
      expect(mail.text, value).toContain(value);
      expect(mail.html, value).toContain(escapeHtml(value));
    }
    // Nothing a member typed reaches the HTML as markup.
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('"<b>"');
    expect(mail.html).not.toMatch(/<x>/);
  });

  it('the goal reminder offers one-click unsubscribe to mail clients (RFC 8058)', () => {
    const [{ data }] = samples['goal-reminder'];
    expect(renderMail('goal-reminder', data).headers).toEqual({
      'List-Unsubscribe': `<${data.unsubscribeUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('each owner notice has its own subject', () => {
    const subjects = Object.values(OWNER_EVENTS).map((event) => event.subject);
    expect(new Set(subjects).size).toBe(subjects.length);
  });
});

describe('the one way out', () => {
  const src = path.resolve(import.meta.dirname, '../../src');
  /** Where mail may be queued or handed to the email plugin, and why. */
  const ALLOWED = new Set([
    // sendMail itself.
    'mail/send.ts',
    // The email plugin's `send`, replaced by a queue write: users-permissions' own confirmation e-mail takes it.
    'extensions/email/strapi-server.ts',
    // The queue's worker hands each message to the plugin's provider through deliverToProvider.
    'mail/deliver.ts',
    // The queue itself: its own enqueue.
    'api/email-message/services/mail-queue.ts',
  ]);

  it('nothing else in server/src queues mail or calls the email plugin', () => {
    const offenders = (fs.readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !ALLOWED.has(file.split(path.sep).join('/')))
      .filter((file) => /\.enqueue\(|plugin\(\s*['"]email['"]\s*\)/.test(fs.readFileSync(path.join(src, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
