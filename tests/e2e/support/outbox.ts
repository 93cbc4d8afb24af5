import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { WAIT_MS } from './browser';

/** A message the e2e server wrote to its outbox (server/providers/strapi-provider-email-outbox). */
export type OutboxEmail = { file: string; to: string; subject: string; raw: string };

export function outboxDir(): string {
  return inject('outboxDir');
}

function readEmail(file: string): OutboxEmail {
  const raw = readFileSync(file, 'utf8');
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(raw.split('\r\n\r\n', 1)[0])?.[1]?.trim() ?? '';
  return { file, to: header('To'), subject: header('Subject'), raw };
}

/** Every message to `to`, oldest first. */
export function emailsTo(to: string): OutboxEmail[] {
  let names: string[];
  try {
    names = readdirSync(outboxDir()).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  return names
    .map((name) => path.join(outboxDir(), name))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b))
    .map(readEmail)
    .filter((email) => email.to.toLowerCase() === to.toLowerCase());
}

/** Waits until there are more than `alreadySeen` messages to `to`; returns the newest. */
export async function waitForEmail(to: string, alreadySeen = 0, timeoutMs = WAIT_MS): Promise<OutboxEmail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const emails = emailsTo(to);
    if (emails.length > alreadySeen) return emails[emails.length - 1];
    if (Date.now() > deadline) throw new Error(`no new email to ${to} in ${outboxDir()} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The reset code and the link of a password-reset email. */
export function resetCodeOf(email: OutboxEmail): { code: string; link: URL } {
  const code = /Your reset code: ([A-Z0-9]+)/.exec(email.raw)?.[1];
  const link = /(https?:\/\/\S+\/reset-password\?code=[A-Z0-9]+)/.exec(email.raw)?.[1];
  if (!code || !link) throw new Error(`no reset code or link in ${email.file}:\n${email.raw}`);
  return { code, link: new URL(link) };
}
