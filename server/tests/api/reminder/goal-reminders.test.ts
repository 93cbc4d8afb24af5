import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { request } from '../../helpers/strapi';
import { boot, type TestApp } from '../../helpers/app';
import { mailQueueOf, settleMail } from '../../helpers/mail-queue';
import { PG, postgresEnv, withPostgres } from '../../helpers/instances';
import type { OutboxEmail } from '../../helpers/outbox';
import type { ApiError } from '../../helpers/types';
import type { GoalReminderService, ReminderRun } from '../../../src/api/reminder/services/goal-reminders';
import { progressMessages, utcDate } from '../../../src/contract/progress';
import { DEFAULT_GOAL_REMINDER_CRON, goalReminderTasks } from '../../../src/reminders/cron';
import { isoWeek, periodKey } from '../../../src/reminders/period';
import type { Member } from '../../helpers/members';

/**
 * Issue 12, goal reminder e-mails: the cron job's core (run with an injected clock), at most one
 * e-mail per member and period even with concurrent runs, the progress it shows, and the signed
 * one-click unsubscribe link (a tampered one changes nothing).
 */

const pgReachable = await withPostgres(async () => true).catch((error: Error) => {
  console.warn(`[goal-reminders.test] PostgreSQL part skipped: no PostgreSQL at ${PG.host}:${PG.port} (${error.message})`);
  return false;
});

const SITE_STYLESHEET = '<link rel="stylesheet" crossorigin href="/assets/index-reminders.css">';

/** One booted server, its outbox, and helpers bound to it. */
function harness(prefix: string) {
  const state = {
    app: undefined as unknown as TestApp,
    tmpDir: '',
  };
  let counter = 0;

  const start = async (env: Record<string, string> = {}) => {
    state.tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), `carnivo-reminders-${prefix}-`));
    // A built SPA's shell: the unsubscribe page links its stylesheet.
    const spaDir = path.join(state.tmpDir, 'spa');
    fs.mkdirSync(spaDir);
    fs.writeFileSync(
      path.join(spaDir, 'index.html'),
      `<!doctype html><html><head>${SITE_STYLESHEET}</head><body><div id="root"></div></body></html>`,
    );
    // Many sign-ups from one address: the auth rate limit is not what is tested here.
    state.app = await boot({ outbox: true, limits: 'off', env: { SPA_DIR: spaDir, ...env } });
    // The links in the e-mails point at this server (publicUrl() reads PUBLIC_URL when it builds one).
    process.env.PUBLIC_URL = state.app.baseUrl;
  };
  const stop = async () => {
    await state.app?.stop();
    fs.rmSync(state.tmpDir, { recursive: true, force: true });
  };

  const register = (name: string): Promise<Member> => state.app.register(`${prefix}${name}${++counter}`);
  const put = async (member: Member, body: unknown) => {
    const res = await request<ApiError>(state.app.baseUrl, 'PUT', `/api/users/${member.id}`, { body, token: member.jwt });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** A member with a goal, as the Information and Goals tabs save it. */
  const goalSetter = async (
    name: string,
    options: { weight: number; goal: number; reminder: 'daily' | 'weekly'; unit?: 'metric' | 'imperial' },
  ) => {
    const member = await register(name);
    await put(member, {
      bmi: { currentWeight: options.weight, height: 180, Gender: 'Male', date_of_birth: '1990-05-01', idealBmiWeight: '72.9' },
    });
    await put(member, { goal_weight: options.goal, goal_reminder: options.reminder, unit_system: options.unit ?? 'metric' });
    return member;
  };
  const reminders = () => state.app.strapi.service('api::reminder.goal-reminders') as unknown as GoalReminderService;
  /** One run of the job, then the mail queue's delivery of what it queued. */
  const run = async (now: string): Promise<ReminderRun> => {
    const result = await reminders().run({ now: new Date(now) });
    await settleMail(state.app.strapi);
    return result;
  };
  const me = async (member: Member) => {
    const res = await state.app.me<{ reminders_enabled: boolean }>(member.jwt);
    expect(res.status).toBe(200);
    return res.body;
  };
  return { state, start, stop, register, put, goalSetter, reminders, run, me };
}

/** What a browser sends when the member clicks the link. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

const linkOf = (email: OutboxEmail) => {
  const match = /Stop them with one click: (\S+)/.exec(email.text);
  if (!match) throw new Error(`no unsubscribe link in ${email.file}`);
  return match[1];
};

describe('the cron job', () => {
  it('runs hourly by default, on GOAL_REMINDER_CRON when set, and not at all with "off"', () => {
    expect(goalReminderTasks({ NODE_ENV: 'production' }).goalReminders.options.rule).toBe(DEFAULT_GOAL_REMINDER_CRON);
    expect(DEFAULT_GOAL_REMINDER_CRON).toBe('0 * * * *');
    expect(goalReminderTasks({ NODE_ENV: 'production', GOAL_REMINDER_CRON: '30 7 * * *' }).goalReminders.options.rule).toBe('30 7 * * *');
    expect(goalReminderTasks({ NODE_ENV: 'production', GOAL_REMINDER_CRON: 'off' })).toEqual({});
    // Tests get the job only when they ask for it.
    expect(goalReminderTasks({ NODE_ENV: 'test' })).toEqual({});
  });

  it('periods are UTC days and ISO weeks', () => {
    expect(periodKey('daily', new Date('2030-01-07T23:59:59Z'))).toBe('daily:2030-01-07');
    expect(isoWeek(new Date('2030-01-07T00:00:00Z'))).toBe('2030-W02');
    expect(isoWeek(new Date('2030-01-13T23:59:59Z'))).toBe('2030-W02');
    expect(isoWeek(new Date('2030-01-14T00:00:00Z'))).toBe('2030-W03');
    expect(isoWeek(new Date('2026-12-31T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeek(new Date('2027-01-03T12:00:00Z'))).toBe('2026-W53');
    expect(isoWeek(new Date('2024-12-30T12:00:00Z'))).toBe('2025-W01');
  });
});

describe('goal reminders (SQLite)', () => {
  const h = harness('r');

  beforeAll(async () => {
    await h.start({ GOAL_REMINDER_CRON: '0 0 1 1 *' });
  });
  afterAll(() => h.stop());

  it('schedules the job from GOAL_REMINDER_CRON with Strapi cron', () => {
    const jobs = h.state.app.strapi.cron.jobs as { name: string | null; options: { rule: string } }[];
    expect(jobs.filter((job) => job.name === 'goalReminders').map((job) => job.options.rule)).toEqual(['0 0 1 1 *']);
  });

  it('e-mails progress toward the goal with the latest entries, once a day', async () => {
    const member = await h.goalSetter('daily', { weight: 82, goal: 75, reminder: 'daily' });
    const today = utcDate(new Date());
    for (const [date, weight] of [
      ['2020-01-01', 90],
      ['2020-02-01', 88.5],
      ['2020-03-01', 86],
    ] as const) {
      const res = await request(h.state.app.baseUrl, 'POST', '/api/weight-entries', { body: { date, weight }, token: member.jwt });
      expect(res.status).toBe(201);
    }

    await h.run('2030-03-04T08:00:00Z');
    const [email, ...more] = h.state.app.outbox.take(member.email);
    expect(more).toEqual([]);
    expect(email.headers.subject).toBe('Your Carnivo goal: 75 kg');
    expect(email.text).toContain('Current weight: 82 kg');
    expect(email.text).toContain('Goal weight: 75 kg');
    expect(email.text).toContain('Progress: 7 kg to lose');
    // Newest first: today's entry (the current weight saved through the profile) and the three above.
    const listed = email.text.split('\n').filter((line) => line.startsWith('- '));
    expect(listed).toEqual([`- ${today}: 82 kg`, '- 2020-03-01: 86 kg', '- 2020-02-01: 88.5 kg', '- 2020-01-01: 90 kg']);
    expect(email.html).toContain('7 kg to lose');
    expect(email.html).toContain(`href="${linkOf(email)}"`);
    expect(linkOf(email).startsWith(`${h.state.app.baseUrl}/api/reminders/unsubscribe?token=`)).toBe(true);

    await h.run('2030-03-04T09:00:00Z');
    await h.run('2030-03-04T23:59:59Z');
    expect(h.state.app.outbox.take(member.email)).toEqual([]);

    await h.run('2030-03-05T00:00:00Z');
    expect(h.state.app.outbox.take(member.email)).toHaveLength(1);
  });

  it('e-mails weekly members once per ISO week, in their units', async () => {
    const member = await h.goalSetter('weekly', { weight: 100, goal: 90, reminder: 'weekly', unit: 'imperial' });
    await h.run('2030-04-01T10:00:00Z'); // Monday
    const [email, ...more] = h.state.app.outbox.take(member.email);
    expect(more).toEqual([]);
    expect(email.text).toContain('Current weight: 220.5 lb');
    expect(email.text).toContain('Goal weight: 198.4 lb');
    expect(email.text).toContain('Progress: 22 lb to lose');

    await h.run('2030-04-03T10:00:00Z'); // Wednesday
    await h.run('2030-04-07T23:00:00Z'); // Sunday
    expect(h.state.app.outbox.take(member.email)).toEqual([]);
    await h.run('2030-04-08T00:30:00Z'); // next Monday
    expect(h.state.app.outbox.take(member.email)).toHaveLength(1);
  });

  it('says "to gain" below the goal', async () => {
    const member = await h.goalSetter('gainer', { weight: 60, goal: 65.5, reminder: 'daily' });
    await h.run('2030-05-01T10:00:00Z');
    const [email] = h.state.app.outbox.take(member.email);
    expect(email.text).toContain('Progress: 5.5 kg to gain');
  });

  it('sends nothing without a goal, with reminders off, or to a blocked member', async () => {
    const noGoal = await h.goalSetter('nogoal', { weight: 80, goal: 0, reminder: 'daily' });
    const off = await h.goalSetter('off', { weight: 80, goal: 70, reminder: 'daily' });
    await h.put(off, { reminders_enabled: false });
    const blocked = await h.goalSetter('blocked', { weight: 80, goal: 70, reminder: 'daily' });
    await h.state.app.strapi.db.query('plugin::users-permissions.user').update({ where: { id: blocked.id }, data: { blocked: true } });

    await h.run('2030-06-01T10:00:00Z');
    for (const member of [noGoal, off, blocked]) expect(h.state.app.outbox.take(member.email)).toEqual([]);
  });

  it('sends one e-mail per member and period when several runs race', async () => {
    const racers = await Promise.all([1, 2, 3].map((n) => h.goalSetter(`race${n}`, { weight: 80 + n, goal: 70, reminder: 'daily' })));
    const runs = await Promise.all(Array.from({ length: 5 }, () => h.run('2030-07-01T10:00:00Z')));
    for (const member of racers) expect(h.state.app.outbox.take(member.email)).toHaveLength(1);
    const due = runs[0].due;
    expect(runs.reduce((sum, result) => sum + result.sent, 0)).toBe(due);
    expect(runs.reduce((sum, result) => sum + result.alreadySent, 0)).toBe(due * 4);
    const claims = await h.state.app.strapi.db
      .query('api::reminder.reminder-send')
      .count({ where: { period: { $in: ['daily:2030-07-01', `weekly:${isoWeek(new Date('2030-07-01'))}`] } } });
    expect(claims).toBe(due);
  });

  it('tries again on the next run when the e-mail could not be handed over', async () => {
    const member = await h.goalSetter('retry', { weight: 90, goal: 80, reminder: 'daily' });
    // sendMail's one road (src/mail/send.ts): the queue refuses the message.
    const queue = mailQueueOf(h.state.app.strapi);
    const enqueue = queue.enqueue;
    queue.enqueue = async (options) => {
      if (options.to === member.email) throw new Error('mail queue unreachable');
      return enqueue.call(queue, options);
    };
    try {
      const failed = await h.run('2030-08-01T10:00:00Z');
      expect(failed.failed).toBe(1);
    } finally {
      queue.enqueue = enqueue;
    }
    expect(h.state.app.outbox.take(member.email)).toEqual([]);
    await h.run('2030-08-01T11:00:00Z');
    expect(h.state.app.outbox.take(member.email)).toHaveLength(1);
  });

  it("unsubscribes with the e-mail's link, without logging in; further runs send nothing", async () => {
    const member = await h.goalSetter('unsub', { weight: 80, goal: 70, reminder: 'daily' });
    await h.run('2030-09-01T10:00:00Z');
    const [email] = h.state.app.outbox.take(member.email);

    const res = await fetch(linkOf(email), { headers: BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain(`<h1>Reminders turned off</h1>\n<p>${progressMessages.unsubscribed}</p>`);
    // The site's look (its stylesheet, the header's logo and name linking home) and links relative to the site.
    expect(html).toContain(SITE_STYLESHEET);
    expect(html).toContain('<a href="/" class="brand"><img src="/favicon.svg" alt="" width="32" height="32"><span>Carnivo</span></a>');
    expect(html).toContain('<a href="/profile?tab=goals">Go to your profile</a><a href="/">Back to Carnivo</a>');
    expect((await h.me(member)).reminders_enabled).toBe(false);

    // The link works again (a second click), and changes nothing else.
    expect((await fetch(linkOf(email), { headers: BROWSER })).status).toBe(200);
    await h.run('2030-09-02T10:00:00Z');
    expect(h.state.app.outbox.take(member.email)).toEqual([]);
  });

  it("takes the mail clients' one-click POST (RFC 8058) too", async () => {
    const member = await h.goalSetter('oneclick', { weight: 80, goal: 70, reminder: 'daily' });
    await h.run('2030-09-03T10:00:00Z');
    const [email] = h.state.app.outbox.take(member.email);
    const res = await fetch(linkOf(email), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect((await h.me(member)).reminders_enabled).toBe(false);
  });

  it("refuses a tampered or foreign link with 400 and leaves the victim's reminders on", async () => {
    const attacker = await h.goalSetter('attacker', { weight: 80, goal: 70, reminder: 'daily' });
    const victim = await h.goalSetter('victim', { weight: 80, goal: 70, reminder: 'daily' });
    await h.run('2030-10-01T10:00:00Z');
    const [email] = h.state.app.outbox.take(attacker.email);
    const link = new URL(linkOf(email));
    const token = link.searchParams.get('token')!;
    const [, signature] = token.split('.');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    const otherKey = crypto.createHmac('sha256', 'not-the-server-key').update(`user:${victim.id}`).digest('base64url');

    const attempts = [
      `${victim.id}.${signature}`, // the attacker's signature on the victim's id
      `${attacker.id}.${flipped}`,
      `${victim.id}.${otherKey}`,
      `${victim.id}`,
      `${victim.id}.`,
      '',
    ];
    for (const attempt of attempts) {
      const url = `${h.state.app.baseUrl}/api/reminders/unsubscribe?token=${encodeURIComponent(attempt)}`;
      const page = await fetch(url, { headers: BROWSER });
      expect(page.status, attempt).toBe(400);
      expect(await page.text()).toContain(progressMessages.unsubscribeInvalid);
      const oneClick = await request<ApiError>(h.state.app.baseUrl, 'POST', url.slice(h.state.app.baseUrl.length));
      expect(oneClick.status, attempt).toBe(400);
      expect(oneClick.body.error.message).toBe(progressMessages.unsubscribeInvalid);
    }
    expect((await fetch(`${h.state.app.baseUrl}/api/reminders/unsubscribe`)).status).toBe(400);
    expect((await fetch(`${h.state.app.baseUrl}/api/reminders/unsubscribe?token=a&token=b`)).status).toBe(400);

    expect((await h.me(victim)).reminders_enabled).toBe(true);
    expect((await h.me(attacker)).reminders_enabled).toBe(true);
    await h.run('2030-10-02T10:00:00Z');
    expect(h.state.app.outbox.take(victim.email)).toHaveLength(2);
  });

  it("account deletion removes the member's reminder claims", async () => {
    const member = await h.goalSetter('leaver', { weight: 80, goal: 70, reminder: 'daily' });
    await h.run('2030-11-01T10:00:00Z');
    const claims = h.state.app.strapi.db.query('api::reminder.reminder-send');
    expect(await claims.count({ where: { claim_key: `${member.id}:daily:2030-11-01` } })).toBe(1);
    const res = await request(h.state.app.baseUrl, 'DELETE', '/api/users-permissions/users/delete-account', { token: member.jwt });
    expect(res.status).toBe(200);
    expect(await claims.count({ where: { claim_key: { $startsWith: `${member.id}:` } } })).toBe(0);
  });
});

describe.skipIf(!pgReachable)('goal reminders and weight entries on PostgreSQL (concurrent connections)', () => {
  const h = harness('p');
  const schema = `carnivo_reminders_${crypto.randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    await withPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
    await h.start({
      ...postgresEnv(schema),
    });
  });
  afterAll(async () => {
    await h.stop();
    await withPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  });

  it('two or more racing runs send one e-mail per member and period', async () => {
    const racers = await Promise.all(
      [1, 2, 3, 4].map((n) => h.goalSetter(`race${n}`, { weight: 80 + n, goal: 70, reminder: n % 2 ? 'daily' : 'weekly' })),
    );
    const runs = await Promise.all(Array.from({ length: 6 }, () => h.run('2030-07-01T10:00:00Z')));
    for (const member of racers) expect(h.state.app.outbox.take(member.email)).toHaveLength(1);
    expect(runs.reduce((sum, result) => sum + result.sent, 0)).toBe(racers.length);
    expect(runs.every((result) => result.failed === 0)).toBe(true);
  });

  it('concurrent entries for one day leave one entry', async () => {
    const member = await h.register('entries');
    const weights = [70, 71, 72, 73, 74, 75, 76, 77];
    const answers = await Promise.all(
      weights.map((weight) =>
        request<{ data: { id: number } }>(h.state.app.baseUrl, 'POST', '/api/weight-entries', {
          body: { date: '2024-06-01', weight },
          token: member.jwt,
        }),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const list = await request<{ data: { date: string; weight: number }[] }>(h.state.app.baseUrl, 'GET', '/api/weight-entries', {
      token: member.jwt,
    });
    expect(list.body.data).toHaveLength(1);
    expect(weights).toContain(list.body.data[0].weight);
  });
});
