import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerTest, createUser, openLoggedIn } from './support/browser';
import { emailsTo, waitForEmail } from './support/outbox';
import { OWNER_EVENTS } from '../../server/src/mail/owner-notice';
import { summarizeUserAgent } from '../../server/src/security/user-agent';

// otpauth is a dependency of the server: loaded from there, as an authenticator app would compute the codes.
const serverRequire = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'package.json'));
const { TOTP, Secret } = serverRequire('otpauth') as {
  TOTP: { generate(options: { secret: unknown }): string };
  Secret: { fromBase32(base32: string): unknown };
};

let page: Page;
browserPerTest((session) => ({ page } = session));

const panel = (p: Page) => p.getByRole('region', { name: 'Two-factor authentication' });

describe('owner notices (docs/email.md#owner-notices)', () => {
  it('turning two-factor on in the browser e-mails the owner what happened, when and from this browser', async () => {
    const user = await createUser();
    await openLoggedIn(page, user, '/profile?tab=security');
    const seen = emailsTo(user.email).length;
    const since = Date.now();

    await panel(page).getByRole('button', { name: 'Set up two-factor authentication' }).click();
    const secret = (await panel(page).getByLabel('Secret key').innerText()).trim();
    await panel(page)
      .getByRole('textbox', { name: '6-digit code' })
      .fill(TOTP.generate({ secret: Secret.fromBase32(secret) }));
    await panel(page).getByRole('button', { name: 'Turn on' }).click();
    await panel(page).getByRole('list', { name: 'Recovery codes' }).waitFor();

    const notice = await waitForEmail(user.email, seen);
    expect(notice.subject).toBe(OWNER_EVENTS['two-factor-on'].subject);
    expect(notice.raw).toContain(OWNER_EVENTS['two-factor-on'].what);
    const { device, browser } = summarizeUserAgent(await page.evaluate(() => navigator.userAgent));
    expect(notice.raw).toContain(`Device: ${browser} on ${device}`);
    const when = /When: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC/.exec(notice.raw)?.[1];
    expect(when, notice.raw).toBeDefined();
    expect(Date.parse(`${when!.replace(' ', 'T')}:00Z`)).toBeGreaterThanOrEqual(Math.floor(since / 60_000) * 60_000);
    expect(notice.raw).toMatch(/https?:\/\/\S+\/reset-password/);
    // One notice: nothing else reached the owner.
    expect(emailsTo(user.email)).toHaveLength(seen + 1);
  });
});
