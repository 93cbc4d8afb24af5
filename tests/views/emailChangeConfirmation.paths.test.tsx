import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { emailChangeConfirmationMachine, type EmailChangeLink } from '../../machines/emailChangeConfirmation.machine';
import { CANCEL_EMAIL_CHANGE_FALLBACK, CONFIRM_EMAIL_CHANGE_FALLBACK } from '../../machines/services/emailChange';
import { ApiError } from '../../machines/services/errors';
import { emailChangeConfirmationModel } from '../models/emailChangeConfirmation.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeButton, seeMessages, seePath, wholePage } from '../support/pathSteps';
import { renderApp } from '../support/renderApp';

const TOKEN = `7.${'Ab-_'.repeat(10)}xyz`;
const NEW_EMAIL = 'tbone@example.com';
const REFUSAL =
  'This confirmation link is invalid, was already used or has expired. Change your email again from your profile to get a new one.';

/** What each page says and offers (word for word, from the spec of the flow). */
const PAGES = {
  confirm: {
    heading: 'Confirm Your New Email',
    button: { idle: 'Confirm New Email', busy: 'Confirming...' },
    done: `Your email address is now ${NEW_EMAIL}. Please log in with it.`,
    fallback: 'Failed to confirm your new email address',
    next: 'Log In Now',
  },
  cancel: {
    heading: 'Cancel Email Change',
    button: { idle: 'Cancel Email Change', busy: 'Cancelling...' },
    done: 'The email change was cancelled. Your email address stays as it was.',
    fallback: 'Failed to cancel the email change',
    next: 'Back to Home',
  },
} as const;

function openLink(link: EmailChangeLink, query: string, inspect: Inspect) {
  const confirmations = deferredCalls<string, string>();
  const cancellations = deferredCalls<string, void>();
  // The doubles stand for the server: the machine's own actor composes the messages from their answers.
  const emailChangeConfirmation = emailChangeConfirmationMachine.provide({
    actors: {
      submitLink: fromPromise<string, { token: string; link: EmailChangeLink }>(async ({ input }) => {
        if (input.link === 'confirm')
          return `Your email address is now ${await confirmations.handler(input.token)}. Please log in with it.`;
        await cancellations.handler(input.token);
        return PAGES.cancel.done;
      }),
    },
  });
  const app = renderApp(`/email-change/${link}${query}`, { flows: { emailChangeConfirmation }, inspect });
  const calls = (): readonly { input: string }[] => (link === 'confirm' ? confirmations.calls : cancellations.calls);
  const accept = () => (link === 'confirm' ? confirmations.last().settle.resolve(NEW_EMAIL) : cancellations.last().settle.resolve());
  const reject = (error: ApiError) => (link === 'confirm' ? confirmations : cancellations).last().settle.reject(error);
  return { ...app, link, calls, accept, reject, callsBefore: 0 };
}
type Page = ReturnType<typeof openLink>;

async function expectPage(page: Page, { busy, alert, notice }: { busy: boolean; alert?: string | null; notice?: string | null }) {
  await see(`the heading '${PAGES[page.link].heading}'`, () => screen.getByRole('heading', { name: PAGES[page.link].heading }));
  await seeButton(wholePage, PAGES[page.link].button, busy);
  await seeMessages(wholePage, { alert: alert ?? null, notice: notice ?? null });
  await seePath(page, `/email-change/${page.link}`);
}

async function ready(page: Page) {
  await expectPage(page, { busy: false });
  // Opening the link sent nothing: a mail scanner that opens it changes nothing.
  expect(page.calls()).toHaveLength(0);
}

async function submitting(page: Page) {
  await expectPage(page, { busy: true });
  expect(page.calls()).toHaveLength(page.callsBefore + 1);
  expect(page.calls().at(-1)?.input).toBe(TOKEN);
}

const refused = (page: Page) => expectPage(page, { busy: false, alert: REFUSAL });
const failed = (page: Page) => expectPage(page, { busy: false, alert: PAGES[page.link].fallback });

async function done(page: Page) {
  await seeMessages(wholePage, { alert: null, notice: PAGES[page.link].done });
  expect(screen.queryByRole('button', { name: PAGES[page.link].button.idle })).toBeNull();
  const next = screen.getByRole('link', { name: PAGES[page.link].next });
  expect(next.getAttribute('href')).toBe(page.link === 'confirm' ? '/login' : '/');
}

describe('emailChangeConfirmation: the spec model replayed against /email-change/confirm and /cancel', () => {
  it('uses the spec fallbacks', () => {
    expect(CONFIRM_EMAIL_CHANGE_FALLBACK).toBe(PAGES.confirm.fallback);
    expect(CANCEL_EMAIL_CHANGE_FALLBACK).toBe(PAGES.cancel.fallback);
  });

  definePathTests<Page>({
    flow: 'emailChangeConfirmation',
    machine: emailChangeConfirmationMachine,
    model: emailChangeConfirmationModel,
    open: {
      'confirmLink.opened': (inspect) => openLink('confirm', `?token=${TOKEN}`, inspect),
      'cancelLink.opened': (inspect) => openLink('cancel', `?token=${TOKEN}`, inspect),
      // A token cut short by a mail client: the route drops it, the page says so.
      'brokenLink.opened': (inspect) => openLink('confirm', `?token=${TOKEN.slice(0, 20)}`, inspect),
    },
    perform: {
      'link.submitted': async (page) => {
        page.callsBefore = page.calls().length;
        await userEvent.click(screen.getByRole('button', { name: PAGES[page.link].button.idle }));
      },
      'server.accepted': (page) => page.accept(),
      'server.refused': (page) => page.reject(new ApiError(REFUSAL, 400)),
      'server.failedWithoutMessage': (page) => page.reject(new ApiError('', 500)),
    },
    screens: {
      ready,
      cancelReady: ready,
      submitting,
      cancelSubmitting: submitting,
      refused,
      cancelRefused: refused,
      failed,
      cancelFailed: failed,
      confirmed: done,
      cancelled: done,
      broken: async () => {
        await seeMessages(wholePage, { alert: 'This link is incomplete. Please open the link from the email again.', notice: null });
        expect(screen.queryByRole('button', { name: PAGES.confirm.button.idle })).toBeNull();
      },
    },
  });
});
