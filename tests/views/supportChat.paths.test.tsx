import { afterEach, describe, expect, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { supportChatMachine } from '../../machines/supportChat.machine';
import { site } from '../../src/config/site';
import { supportChatModel } from '../models/supportChat.model';
import { deferredCalls } from '../support/deferred';
import { definePathTests, see, type Inspect } from '../support/pathTests';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';

function openSupportTab(configured: boolean, inspect: Inspect) {
  const loads = deferredCalls<void, void>();
  const maximize = vi.fn();
  const supportChat = supportChatMachine.provide({
    actors: { loadWidget: fromPromise<void>(() => loads.handler()) },
    actions: { maximizeWidget: maximize },
    guards: { configured: () => configured },
  });
  return { ...renderProfile('support', { supportChat }, {}, inspect), loads, maximize };
}
type Page = ReturnType<typeof openSupportTab>;
const supportCard = () => screen.getByRole('region', { name: 'Support' });

async function expectTab(page: Page, options: { loading: boolean; maximized: number }) {
  await see("the region 'Support'", supportCard);
  await see(options.loading ? "the button 'Opening chat...'" : "no button 'Opening chat...'", () =>
    expect(within(supportCard()).queryByRole('button', { name: 'Opening chat...' }) !== null).toBe(options.loading),
  );
  expect(page.maximize).toHaveBeenCalledTimes(options.maximized);
}

async function expectReady(page: Page) {
  await expectTab(page, { loading: false, maximized: 0 });
  expect(within(supportCard()).getByRole('button', { name: 'Chat with Support' })).toBeTruthy();
  expect(within(supportCard()).queryByRole('status')).toBeNull();
  expect(within(supportCard()).queryByRole('alert')).toBeNull();
}

async function expectOpen(page: Page, maximized: number) {
  await expectTab(page, { loading: false, maximized });
  expect(within(supportCard()).getByRole('status').textContent).toBe('The chat window is open.');
}

describe('supportChat: the spec model replayed against the Support tab', () => {
  afterEach(restoreProfileHarness);

  definePathTests<Page>({
    flow: 'supportChat',
    machine: supportChatMachine,
    model: supportChatModel,
    open: {
      'tab.openedWithChat': (inspect) => openSupportTab(true, inspect),
      'tab.openedWithoutChat': (inspect) => openSupportTab(false, inspect),
    },
    perform: {
      'chat.requested': (page) => page.user.click(within(supportCard()).getByRole('button', { name: 'Chat with Support' })),
      'widget.loaded': (page) => page.loads.last().settle.resolve(),
      'widget.failed': (page) => page.loads.last().settle.reject(new Error('The live chat could not be loaded.')),
    },
    screens: {
      ready: expectReady,
      readyWithoutChat: expectReady,
      loading: (page) => expectTab(page, { loading: true, maximized: 0 }),
      open: (page) => expectOpen(page, 1),
      openAgain: (page) => expectOpen(page, 2),
      unavailable: async (page) => {
        await expectTab(page, { loading: false, maximized: 0 });
        expect(within(supportCard()).getByRole('alert').textContent).toContain('The live chat could not be loaded.');
        expect(within(supportCard()).getByRole('button', { name: 'Chat with Support' })).toBeTruthy();
      },
      notConfigured: async (page) => {
        await expectTab(page, { loading: false, maximized: 0 });
        await see("the status 'Live chat is not available on this site.'", () =>
          expect(within(supportCard()).getByRole('status').textContent).toContain('Live chat is not available on this site.'),
        );
        expect(within(supportCard()).getAllByRole('link', { name: site.supportEmail })[0].getAttribute('href')).toBe(
          `mailto:${site.supportEmail}`,
        );
        expect(within(supportCard()).queryByRole('button')).toBeNull();
      },
    },
  });
});
