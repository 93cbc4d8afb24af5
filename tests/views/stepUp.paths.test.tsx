import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromPromise } from 'xstate';
import { stepUpMessages } from '../../server/src/contract/stepUp';
import { stepUpMachine } from '../../machines/stepUp.machine';
import { askForStepUp } from '../../machines/services/sessionHooks';
import type { StepUpProof } from '../../machines/services/stepUp';
import { ApiError } from '../../machines/services/errors';
import { SESSION_KEYS } from '../../machines/services/session';
import { stepUpModel } from '../models/stepUp.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Arrival, type Inspect } from '../support/pathTests';
import { seeAlert } from '../support/pathSteps';
import { renderApp } from '../support/renderApp';

const PASSWORD = 'Owner-Pass-1';
const REFUSAL = stepUpMessages.wrongPassword;

function openPage(inspect: Inspect) {
  localStorage.setItem(SESSION_KEYS.jwt, 'member-token');
  localStorage.setItem(SESSION_KEYS.userId, '7');
  const confirmCalls = deferredCalls<StepUpProof, void>();
  const stepUp = stepUpMachine.provide({ actors: { confirm: fromPromise<void, StepUpProof>(({ input }) => confirmCalls.handler(input)) } });
  const user = userEvent.setup({ delay: null });
  const page = { ...renderApp('/about', { flows: { stepUp }, inspect }), confirmCalls, user, outcome: undefined as boolean | undefined };
  return page;
}
type Page = ReturnType<typeof openPage>;

const dialog = () => screen.getByRole('dialog', { name: "Confirm it's you" });

/** The page the member was on stays under the dialog. */
const seePlaceKept = (page: Page) => see('the About page still there', () => expect(page.router.state.location.pathname).toBe('/about'));

async function seeDialog(page: Page, { busy, alert }: { busy: boolean; alert?: string }) {
  await seePlaceKept(page);
  await see("the dialog 'Confirm it's you'", dialog);
  expect(within(dialog()).getByText(stepUpMessages.required)).toBeTruthy();
  const buttons = [busy ? 'Confirming...' : 'Confirm', 'Use a passkey', 'Cancel'].map(
    (name) => within(dialog()).getByRole('button', { name }) as HTMLButtonElement,
  );
  await see(busy ? 'the buttons disabled' : 'the buttons enabled', () =>
    expect(buttons.map((button) => button.disabled)).toEqual([busy, busy, busy]),
  );
  await seeAlert(dialog, alert);
  expect(page.outcome).toBeUndefined();
}

async function seeClosed(page: Page, confirmed: boolean) {
  await seePlaceKept(page);
  await see('no dialog', () => expect(screen.queryByRole('dialog')).toBeNull());
  await see(confirmed ? 'the waiting call carried on' : 'the waiting call given up', () => expect(page.outcome).toBe(confirmed));
}

describe('stepUp: the spec model replayed against the dialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('uses the issue words', () => {
    expect(stepUpMessages.required).toBe("Please confirm it's you to continue.");
  });

  definePathTests<Page>({
    flow: 'stepUp',
    machine: stepUpMachine,
    model: stepUpModel,
    open: { 'page.opened': openPage },
    perform: {
      // What the API client does with a 403 carrying error.details.stepUp (machines/services/client.ts).
      'guardedCall.refused': (page) => {
        void askForStepUp(['password', 'passkey']).then((confirmed) => (page.outcome = confirmed));
      },
      'password.submitted': async (page) => {
        const field = within(dialog()).getByLabelText('Password');
        await page.user.clear(field);
        await page.user.type(field, PASSWORD);
        await page.user.click(within(dialog()).getByRole('button', { name: 'Confirm' }));
      },
      'passkey.chosen': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Use a passkey' })),
      'dialog.cancelled': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
      'server.confirmed': (page) => page.confirmCalls.last().settle.resolve(),
      'server.refused': (page) => page.confirmCalls.last().settle.reject(new ApiError(REFUSAL, 400)),
    },
    screens: {
      browsing: async (page) => {
        await see("the heading 'About'", () => screen.getAllByRole('heading', { level: 1 }));
        expect(screen.queryByRole('dialog')).toBeNull();
        expect(page.outcome).toBeUndefined();
      },
      asking: async (page) => {
        await seeDialog(page, { busy: false });
        // The dialog takes focus on its field, as every dialog of the site does.
        await see('the Password field focused', () => expect(document.activeElement).toBe(within(dialog()).getByLabelText('Password')));
      },
      verifying: async (page, arrival: Arrival) => {
        await seeDialog(page, { busy: true });
        const sent = page.confirmCalls.last().input;
        expect(sent).toEqual(arrival.via === 'passkey.chosen' ? { method: 'passkey' } : { method: 'password', secret: PASSWORD });
      },
      refused: (page) => seeDialog(page, { busy: false, alert: REFUSAL }),
      carriedOn: (page) => seeClosed(page, true),
      cancelled: (page) => seeClosed(page, false),
    },
  });
});
