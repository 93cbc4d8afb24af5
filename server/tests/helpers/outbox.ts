import fs from 'node:fs';
import path from 'node:path';

/** One message written by strapi-provider-email-outbox (server/providers/). */
export interface OutboxEmail {
  file: string;
  headers: Record<string, string>;
  /** The whole file: headers, text part and html part. */
  raw: string;
  text: string;
  html: string;
}

export function parseEmail(file: string): OutboxEmail {
  const raw = fs.readFileSync(file, 'utf8');
  const [head] = raw.split('\r\n\r\n', 1);
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  const part = (type: string) => {
    const match = new RegExp(`Content-Type: ${type}; charset=utf-8\\r\\n(?:[^\\r\\n]+\\r\\n)*\\r\\n([\\s\\S]*?)\\r\\n(?:--|$)`).exec(raw);
    return match ? match[1] : '';
  };
  return { file, headers, raw, text: part('text/plain'), html: part('text/html') };
}

/** Reads an outbox directory; each message is handed out once, oldest first. */
export function createOutboxReader(dir: string) {
  const seen = new Set<string>();

  const pending = (): string[] => {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((name) => name.endsWith('.eml'));
    } catch {
      return [];
    }
    return names
      .map((name) => path.join(dir, name))
      .filter((file) => !seen.has(file))
      .map((file) => ({ file, time: fs.statSync(file).mtimeMs }))
      .sort((a, b) => a.time - b.time || a.file.localeCompare(b.file))
      .map(({ file }) => file);
  };

  return {
    dir,
    /** Messages to `to` not handed out yet (marks them as seen). */
    take(to: string): OutboxEmail[] {
      const found = pending()
        .map(parseEmail)
        .filter((email) => email.headers.to?.toLowerCase() === to.toLowerCase());
      for (const email of found) seen.add(email.file);
      return found;
    },
    /** Waits for the next message to `to` (with `subject`, when given: others, e.g. owner notices, are left for later). */
    async next(to: string, timeoutMs = 10_000, subject?: string): Promise<OutboxEmail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const email = pending()
          .map(parseEmail)
          .find(
            (candidate) =>
              candidate.headers.to?.toLowerCase() === to.toLowerCase() && (subject === undefined || candidate.headers.subject === subject),
          );
        if (email) {
          seen.add(email.file);
          return email;
        }
        if (Date.now() > deadline) throw new Error(`no email to ${to} in ${dir} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    /** Number of .eml files in the directory. */
    count(): number {
      try {
        return fs.readdirSync(dir).filter((name) => name.endsWith('.eml')).length;
      } catch {
        return 0;
      }
    },
  };
}

export const RESET_SUBJECT = 'Your Carnivo password reset code';

/** The reset code in a password-reset email (text part). */
export function resetCodeOf(email: OutboxEmail): string {
  const match = /Your reset code: ([A-Z0-9]+)/.exec(email.text);
  if (!match) throw new Error(`no reset code in ${email.file}`);
  return match[1];
}

/** The token of the confirm or cancel link in an e-mail of a verified e-mail change. */
export function emailChangeTokenOf(email: OutboxEmail, page: 'confirm' | 'cancel'): string {
  const match = new RegExp(`/email-change/${page}\\?token=([0-9]+\\.[A-Za-z0-9_-]{43})`).exec(email.text);
  if (!match) throw new Error(`no ${page} link in ${email.file}`);
  return match[1];
}
