'use strict';

/**
 * Carnivo's fallback email provider: with no SMTP server configured, each message is written
 * to one .eml file (RFC 822 headers, then a multipart text/html body) in the outbox directory,
 * and a log line names the file, so a local user can read e.g. a password-reset code.
 *
 * providerOptions: { outboxDir: string (absolute), log?: { info(msg) } }
 * settings: { defaultFrom, defaultReplyTo }
 */
const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const oneLine = (value) =>
  String(value)
    .replace(/[\r\n]+/g, ' ')
    .trim();

const formatAddresses = (value) => {
  if (value === undefined || value === null || value === '') return undefined;
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((entry) =>
      typeof entry === 'object' && entry !== null ? (entry.name ? `${entry.name} <${entry.address}>` : entry.address) : entry,
    )
    .map(oneLine)
    .join(', ');
};

/** Safe, sortable file name: 2024-01-31T12-00-00-000Z_<to>_<random>.eml */
const fileNameFor = (to, date) => {
  const stamp = date.toISOString().replace(/[:.]/g, '-');
  const recipient = (to || 'unknown').replace(/[^a-zA-Z0-9@._+-]+/g, '_').slice(0, 80);
  return `${stamp}_${recipient}_${crypto.randomBytes(4).toString('hex')}.eml`;
};

const render = (message, date) => {
  const boundary = `carnivo-${crypto.randomBytes(12).toString('hex')}`;
  const headers = [
    ['From', formatAddresses(message.from)],
    ['To', formatAddresses(message.to)],
    ['Cc', formatAddresses(message.cc)],
    ['Bcc', formatAddresses(message.bcc)],
    ['Reply-To', formatAddresses(message.replyTo)],
    ['Subject', message.subject !== undefined ? oneLine(message.subject) : undefined],
    ['Date', date.toUTCString()],
    ['Message-ID', message.messageId ? oneLine(message.messageId) : `<${crypto.randomUUID()}@outbox.carnivo.local>`],
    ['MIME-Version', '1.0'],
  ].filter(([, value]) => value !== undefined && value !== '');

  const parts = [];
  if (message.text) parts.push(['text/plain', message.text]);
  if (message.html) parts.push(['text/html', message.html]);

  const head = headers.map(([name, value]) => `${name}: ${value}`).join('\r\n');
  if (parts.length === 0) return `${head}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n`;
  if (parts.length === 1) {
    return `${head}\r\nContent-Type: ${parts[0][0]}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${parts[0][1]}\r\n`;
  }
  const body = parts
    .map(
      ([type, content]) => `--${boundary}\r\nContent-Type: ${type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n${content}\r\n`,
    )
    .join('');
  return `${head}\r\nContent-Type: multipart/alternative; boundary="${boundary}"\r\n\r\n${body}--${boundary}--\r\n`;
};

module.exports = {
  init(providerOptions = {}, settings = {}) {
    if (!providerOptions.outboxDir) {
      throw new Error('strapi-provider-email-outbox: providerOptions.outboxDir is required');
    }
    const outboxDir = path.resolve(providerOptions.outboxDir);
    const log = (line) => {
      const logger = providerOptions.log || (global.strapi && global.strapi.log);
      if (logger && typeof logger.info === 'function') logger.info(line);
      else console.log(line);
    };

    return {
      outboxDir,
      async send(options = {}) {
        const { from, to, cc, bcc, replyTo, subject, text, html, ...rest } = options;
        if (!to) throw new Error('strapi-provider-email-outbox: "to" is required');
        const message = {
          from: from || settings.defaultFrom,
          to,
          cc,
          bcc,
          replyTo: replyTo || settings.defaultReplyTo,
          subject,
          text,
          html,
          ...rest,
        };
        const date = new Date();
        await fs.promises.mkdir(outboxDir, { recursive: true });
        const file = path.join(outboxDir, fileNameFor(formatAddresses(to), date));
        await fs.promises.writeFile(file, render(message, date), { encoding: 'utf8', flag: 'wx', mode: 0o600 });
        log(`Email to ${formatAddresses(to)} written to ${file}`);
        return { outboxFile: file };
      },
    };
  },
};
