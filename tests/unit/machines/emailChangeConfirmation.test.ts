import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { emailChangeMessages } from '../../../server/src/contract/emailChange';
import { emailChangeConfirmationMachine, type EmailChangeLink } from '../../../machines/emailChangeConfirmation.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const confirmEmailChange = vi.fn<(token: string, options: { signal: AbortSignal }) => Promise<string>>();
const cancelEmailChange = vi.fn<(token: string, options: { signal: AbortSignal }) => Promise<void>>();
// Like the machine's own actor: the service of the link, then what the page says.
const machine = emailChangeConfirmationMachine.provide({
  actors: {
    submitLink: fromPromise<string, { token: string; link: EmailChangeLink }>(async ({ input, signal }) => {
      if (input.link === 'confirm') return emailChangeMessages.confirmed(await confirmEmailChange(input.token, { signal }));
      await cancelEmailChange(input.token, { signal });
      return emailChangeMessages.cancelled;
    }),
  },
});

const TOKEN = `7.${'a'.repeat(43)}`;
let confirmation: Deferred<string>;
let cancellation: Deferred<void>;

beforeEach(() => {
  confirmation = deferred<string>();
  cancellation = deferred<void>();
  confirmEmailChange.mockReset().mockReturnValue(confirmation.promise);
  cancelEmailChange.mockReset().mockReturnValue(cancellation.promise);
});

const start = (link: EmailChangeLink, token: { value: string | undefined } = { value: TOKEN }) =>
  createActor(machine, { input: { token: token.value, link } }).start();

describe('emailChangeConfirmation (the pages of a verified e-mail change’s links)', () => {
  it('waits for the button (a mail scanner opening the link changes nothing), then sends the token once (busy)', () => {
    const actor = start('confirm');
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ token: TOKEN, link: 'confirm', error: null, message: null });
    expect(confirmEmailChange).not.toHaveBeenCalled();
    actor.send({ type: 'link.submitted' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(confirmEmailChange).toHaveBeenCalledWith(TOKEN, { signal: expect.any(AbortSignal) });
    actor.send({ type: 'link.submitted' });
    expect(confirmEmailChange).toHaveBeenCalledTimes(1);
    expect(cancelEmailChange).not.toHaveBeenCalled();
  });

  it('confirmed: says which address the account now has', async () => {
    const actor = start('confirm');
    actor.send({ type: 'link.submitted' });
    confirmation.resolve('new@example.com');
    await nextTick();
    expect(actor.getSnapshot().matches('confirmed')).toBe(true);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.message).toBe('Your email address is now new@example.com. Please log in with it.');
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('the cancel link voids the change and says the address stays', async () => {
    const actor = start('cancel');
    actor.send({ type: 'link.submitted' });
    expect(cancelEmailChange).toHaveBeenCalledWith(TOKEN, { signal: expect.any(AbortSignal) });
    expect(confirmEmailChange).not.toHaveBeenCalled();
    cancellation.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('confirmed')).toBe(true);
    expect(actor.getSnapshot().context.message).toBe('The email change was cancelled. Your email address stays as it was.');
  });

  it.each([
    ['confirm', 'Failed to confirm your new email address'],
    ['cancel', 'Failed to cancel the email change'],
  ] as const)("%s: shows the server's message, or its fallback, and can be tried again", async (link, fallback) => {
    const actor = start(link);
    const reject = (error: Error) => (link === 'confirm' ? confirmation.reject(error) : cancellation.reject(error));
    actor.send({ type: 'link.submitted' });
    reject(new Error('This link is no longer valid'));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('This link is no longer valid');

    vi.mocked(link === 'confirm' ? confirmEmailChange : cancelEmailChange).mockRejectedValue(new Error(''));
    actor.send({ type: 'link.submitted' });
    expect(actor.getSnapshot().matches('submitting')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(fallback);
    expect(actor.getSnapshot().context.message).toBeNull();
  });

  it.each([undefined, '', `7.${'a'.repeat(42)}`, `0.${'a'.repeat(43)}`, `x7.${'a'.repeat(43)}`])(
    'a link with the token %j fails at once, says so, and never asks the server',
    (token) => {
      const actor = start('confirm', { value: token });
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('This link is incomplete. Please open the link from the email again.');
      actor.send({ type: 'link.submitted' });
      expect(actor.getSnapshot().matches('failure')).toBe(true);
      expect(actor.getSnapshot().can({ type: 'link.submitted' })).toBe(false);
      expect(confirmEmailChange).not.toHaveBeenCalled();
    },
  );
});
