import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { passkeysMachine } from '../../machines/passkeys.machine';
import { ApiError } from '../../machines/services/errors';
import { PasskeyCancelledError } from '../../machines/services/webauthn';
import { passkeyMessages, type PasskeySummary } from '../../server/src/contract/passkeys';
import { passkeysModel } from '../models/passkeys.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { seeMessages } from '../support/pathSteps';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

const LAPTOP: PasskeySummary = {
  id: 3,
  name: 'Work laptop',
  createdAt: '2025-02-01T10:00:00.000Z',
  lastUsedAt: '2025-03-04T08:00:00.000Z',
};
const PHONE: PasskeySummary = { id: 4, name: 'My phone', createdAt: '2025-03-05T10:00:00.000Z', lastUsedAt: null };
const REMOVE_REFUSAL = 'Passkey not found';
const ADD_REFUSAL = 'This passkey is already registered.';

function openSecurity(inspect: Inspect) {
  const lists = deferredCalls<void, PasskeySummary[]>();
  const adds = deferredCalls<{ name: string }, PasskeySummary>();
  const removals = deferredCalls<{ id: number }, void>();
  const passkeys = passkeysMachine.provide({
    actors: {
      listPasskeys: fromPromise(() => lists.handler()),
      addPasskey: fromPromise(({ input }: { input: { name: string } }) => adds.handler(input)),
      removePasskey: fromPromise(({ input }: { input: { id: number } }) => removals.handler(input)),
    },
  });
  return { ...renderProfile('security', { passkeys }, {}, inspect), lists, adds, removals, shown: [] as PasskeySummary[] };
}
type Page = ReturnType<typeof openSecurity>;

const panel = () => screen.getByRole('region', { name: 'Passkeys' });
const dialog = () => screen.getByRole('alertdialog', { name: 'Remove passkey' });

/** The panel: its passkeys (name, created, last used) or none, Add (busy or not), and its messages. */
async function expectPanel(page: Page, { adding = false, alert, notice }: { adding?: boolean; alert?: string; notice?: string }) {
  await see("the region 'Passkeys'", panel);
  await see(`the passkeys ${page.shown.map((passkey) => passkey.name).join(', ') || '(none)'}`, () => {
    if (page.shown.length === 0) {
      within(panel()).getByText('You have no passkeys yet.');
      return;
    }
    const items = within(within(panel()).getByRole('list', { name: 'Your passkeys' })).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('strong')?.textContent)).toEqual(page.shown.map((passkey) => passkey.name));
  });
  for (const item of within(panel()).queryAllByRole('listitem')) {
    const shown = page.shown.find((passkey) => passkey.name === item.querySelector('strong')?.textContent);
    expect(item.textContent).toContain(shown?.lastUsedAt ? 'Last used' : 'Never used');
    expect(item.textContent).toContain('Created');
  }
  const add = within(panel()).getByRole('button', { name: adding ? 'Adding...' : 'Add a passkey' }) as HTMLButtonElement;
  expect(add.disabled).toBe(adding);
  for (const remove of within(panel()).queryAllByRole('button', { name: /^Remove / }) as HTMLButtonElement[])
    expect(remove.disabled).toBe(adding);
  expect(screen.queryByRole('alertdialog')).toBeNull();
  await seeMessages(panel, { alert, notice });
}

async function expectDialog(page: Page, removing: boolean) {
  await see("the dialog 'Remove passkey'", dialog);
  expect(dialog().textContent).toContain(`Remove "${LAPTOP.name}"?`);
  const confirm = within(dialog()).getByRole('button', { name: removing ? 'Removing...' : 'Yes, Remove' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(removing);
  if (removing) expect(page.removals.last().input).toEqual({ id: LAPTOP.id });
}

describe('passkeys: the model replayed against Security › Passkeys', () => {
  afterEach(restoreProfileHarness);

  it('uses calm and clear words', () => {
    expect(passkeyMessages.unsupported).toBe("This device can't create a passkey.");
    expect(passkeyMessages.addCancelled).toBe('No passkey was added. You can try again whenever you like.');
  });

  definePathTests<Page>({
    flow: 'passkeys',
    machine: passkeysMachine,
    model: passkeysModel,
    open: { 'security.opened': openSecurity },
    perform: {
      'server.listed': (page) => {
        page.shown = [LAPTOP];
        page.lists.last().settle.resolve([LAPTOP]);
      },
      'server.listedNone': (page) => page.lists.last().settle.resolve([]),
      'server.loadFailed': (page) => page.lists.last().settle.reject(new ApiError('', 500)),
      'retry.clicked': (page) => page.user.click(within(panel()).getByRole('button', { name: 'Try again' })),
      'add.submitted': async (page) => {
        const name = within(panel()).getByLabelText('Passkey name (optional)');
        await page.user.clear(name);
        await page.user.type(name, PHONE.name);
        await page.user.click(within(panel()).getByRole('button', { name: 'Add a passkey' }));
      },
      'server.added': (page) => {
        page.shown = [...page.shown, PHONE];
        page.adds.last().settle.resolve(PHONE);
      },
      'member.cancelled': (page) => page.adds.last().settle.reject(new PasskeyCancelledError(passkeyMessages.addCancelled)),
      'device.unsupported': (page) => page.adds.last().settle.reject(new Error(passkeyMessages.unsupported)),
      'server.refused': (page) => page.adds.last().settle.reject(new ApiError(ADD_REFUSAL, 400)),
      'remove.clicked': (page) => page.user.click(within(panel()).getByRole('button', { name: `Remove ${LAPTOP.name}` })),
      'remove.confirmed': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Yes, Remove' })),
      'remove.cancelled': (page) => page.user.click(within(dialog()).getByRole('button', { name: 'Cancel' })),
      'server.removed': (page) => {
        page.shown = page.shown.filter((passkey) => passkey.id !== LAPTOP.id);
        page.removals.last().settle.resolve();
      },
      'server.removeFailed': (page) => page.removals.last().settle.reject(new ApiError(REMOVE_REFUSAL, 404)),
    },
    screens: {
      loading: async () => {
        await see("'Loading your passkeys...'", () => within(panel()).getByText('Loading your passkeys...'));
        expect(within(panel()).queryByRole('button', { name: 'Add a passkey' })).toBeNull();
      },
      loadFailed: async () => {
        await seeMessages(panel, { alert: passkeyMessages.loadFailed });
        within(panel()).getByRole('button', { name: 'Try again' });
      },
      none: (page) => expectPanel(page, {}),
      listed: (page) => expectPanel(page, {}),
      adding: async (page) => {
        await expectPanel(page, { adding: true });
        expect(page.adds.last().input).toEqual({ name: PHONE.name });
      },
      added: async (page) => {
        await expectPanel(page, { notice: passkeyMessages.added });
        expect((within(panel()).getByLabelText('Passkey name (optional)') as HTMLInputElement).value).toBe('');
      },
      addCancelled: (page) => expectPanel(page, { notice: passkeyMessages.addCancelled }),
      unsupported: (page) => expectPanel(page, { alert: passkeyMessages.unsupported }),
      addRefused: (page) => expectPanel(page, { alert: ADD_REFUSAL }),
      confirming: (page) => expectDialog(page, false),
      removing: (page) => expectDialog(page, true),
      removed: (page) => expectPanel(page, { notice: passkeyMessages.removed }),
      removeRefused: (page) => expectPanel(page, { alert: REMOVE_REFUSAL }),
    },
  });
});
