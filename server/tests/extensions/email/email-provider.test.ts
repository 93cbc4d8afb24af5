import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_DIR } from '../../helpers/strapi';
import { parseEmail } from '../../helpers/outbox';
import pluginsConfig from '../../../config/plugins';

// Resolved from server/, as Strapi's email plugin resolves its provider.
const require = createRequire(path.join(SERVER_DIR, 'package.json'));
const { env } = require('@strapi/utils') as { env: Parameters<typeof pluginsConfig>[0]['env'] };

interface EmailProvider {
  send(options: Record<string, unknown>): Promise<{ outboxFile?: string } | void>;
}
const outboxProvider = require('strapi-provider-email-outbox') as {
  init(providerOptions: Record<string, unknown>, settings?: Record<string, unknown>): EmailProvider;
};

const EMAIL_ENV = [
  'SMTP_HOST',
  'SMTP_PORT',
  'SMTP_SECURE',
  'SMTP_USERNAME',
  'SMTP_PASSWORD',
  'EMAIL_FROM',
  'EMAIL_REPLY_TO',
  'EMAIL_OUTBOX_DIR',
  'SMTP_TIMEOUT_MS',
];
let savedEnv: Record<string, string | undefined>;
let dir: string;

beforeEach(() => {
  savedEnv = Object.fromEntries(EMAIL_ENV.map((key) => [key, process.env[key]]));
  for (const key of EMAIL_ENV) delete process.env[key];
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carnivo-outbox-unit-'));
});

afterEach(() => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

const emailConfig = () => (pluginsConfig({ env }) as { email: { config: Record<string, any> } }).email.config;

describe('email configuration (config/plugins.ts)', () => {
  it('uses the outbox in server/.tmp/outbox by default, with the Carnivo sender', () => {
    expect(emailConfig()).toEqual({
      provider: 'strapi-provider-email-outbox',
      providerOptions: { outboxDir: path.join(SERVER_DIR, '.tmp', 'outbox') },
      settings: { defaultFrom: 'Carnivo <no-reply@carnivo.app>', defaultReplyTo: 'Carnivo <no-reply@carnivo.app>' },
      // Its per-process limit is off: the shared admin and auth limits cover the routes that send mail.
      ratelimit: { enabled: false },
    });
  });

  it('resolves a relative EMAIL_OUTBOX_DIR against server/ and keeps an absolute one', () => {
    process.env.EMAIL_OUTBOX_DIR = 'mail/out';
    expect(emailConfig().providerOptions.outboxDir).toBe(path.join(SERVER_DIR, 'mail', 'out'));
    process.env.EMAIL_OUTBOX_DIR = dir;
    expect(emailConfig().providerOptions.outboxDir).toBe(dir);
  });

  it('switches to nodemailer with the SMTP_* variables when SMTP_HOST is set', () => {
    Object.assign(process.env, {
      SMTP_HOST: 'smtp.example.com',
      SMTP_PORT: '465',
      SMTP_SECURE: 'true',
      SMTP_USERNAME: 'mailer',
      SMTP_PASSWORD: 's3cret',
      EMAIL_FROM: 'Carnivo Team <team@carnivo.example>',
      EMAIL_REPLY_TO: 'support@carnivo.example',
    });
    expect(emailConfig()).toEqual({
      provider: 'nodemailer',
      providerOptions: {
        host: 'smtp.example.com',
        port: 465,
        secure: true,
        connectionTimeout: 15_000,
        greetingTimeout: 15_000,
        socketTimeout: 30_000,
        auth: { user: 'mailer', pass: 's3cret' },
      },
      settings: { defaultFrom: 'Carnivo Team <team@carnivo.example>', defaultReplyTo: 'support@carnivo.example' },
      ratelimit: { enabled: false },
    });
  });

  it('defaults to port 587 with STARTTLS and no login', () => {
    process.env.SMTP_HOST = 'relay.internal';
    expect(emailConfig().providerOptions).toEqual({
      host: 'relay.internal',
      port: 587,
      secure: false,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
  });

  it('has the nodemailer provider installed (it builds a transport without connecting)', () => {
    const nodemailer = require('@strapi/provider-email-nodemailer') as { init(o: unknown, s: unknown): EmailProvider };
    const provider = nodemailer.init({ host: 'smtp.example.com', port: 587, secure: false }, { defaultFrom: 'a@b.c' });
    expect(typeof provider.send).toBe('function');
  });
});

describe('strapi-provider-email-outbox', () => {
  it('writes one .eml file per message with headers, text and html, and logs its path', async () => {
    const lines: string[] = [];
    const provider = outboxProvider.init(
      { outboxDir: path.join(dir, 'nested'), log: { info: (line: string) => lines.push(line) } },
      { defaultFrom: 'Carnivo <no-reply@carnivo.app>', defaultReplyTo: 'Carnivo <help@carnivo.app>' },
    );
    const first = await provider.send({
      to: 'ann@example.com',
      subject: 'Hello\r\nBcc: evil@example.com',
      text: 'Plain body',
      html: '<p>Html body</p>',
    });
    const second = await provider.send({ to: 'ann@example.com', subject: 'Again', text: 'Second' });

    const files = fs.readdirSync(path.join(dir, 'nested')).sort();
    expect(files).toHaveLength(2);
    expect(files.every((name) => name.endsWith('.eml') && name.includes('ann@example.com'))).toBe(true);
    expect(first && first.outboxFile).not.toBe(second && second.outboxFile);

    const email = parseEmail(first!.outboxFile!);
    expect(email.headers).toMatchObject({
      from: 'Carnivo <no-reply@carnivo.app>',
      to: 'ann@example.com',
      'reply-to': 'Carnivo <help@carnivo.app>',
      subject: 'Hello Bcc: evil@example.com',
      'mime-version': '1.0',
    });
    expect(email.headers).not.toHaveProperty('bcc');
    expect(email.text).toBe('Plain body');
    expect(email.html).toBe('<p>Html body</p>');
    expect(lines).toEqual([
      `Email to ann@example.com written to ${first!.outboxFile}`,
      `Email to ann@example.com written to ${second!.outboxFile}`,
    ]);
  });

  it("keeps the mail queue's Message-ID, so a message handed over twice is recognisable", async () => {
    // This checkout's provider (node_modules may link another checkout's copy).
    const local = require(path.join(SERVER_DIR, 'providers', 'strapi-provider-email-outbox')) as typeof outboxProvider;
    const provider = local.init({ outboxDir: dir, log: { info: () => undefined } });
    const sent = await provider.send({ to: 'ann@example.com', subject: 'Hi', text: 'x', messageId: '<42@carnivo.mail>\r\nBcc: evil@x' });
    expect(parseEmail(sent!.outboxFile!).headers['message-id']).toBe('<42@carnivo.mail> Bcc: evil@x');
    const other = await provider.send({ to: 'ann@example.com', subject: 'Hi', text: 'x' });
    expect(parseEmail(other!.outboxFile!).headers['message-id']).toMatch(/^<[0-9a-f-]{36}@outbox\.carnivo\.local>$/);
  });

  it('refuses a message without recipient and a configuration without directory', async () => {
    expect(() => outboxProvider.init({})).toThrow(/outboxDir/);
    const provider = outboxProvider.init({ outboxDir: dir, log: { info: () => undefined } });
    await expect(provider.send({ subject: 'x', text: 'y' })).rejects.toThrow(/"to" is required/);
  });
});
