import { assign, fromPromise, not, setup } from 'xstate';
import { emailChangeLinkToken, emailChangeMessages } from '../server/src/contract/emailChange';
import { parseBody } from '../server/src/contract/schema';
import { CANCEL_EMAIL_CHANGE_FALLBACK, CONFIRM_EMAIL_CHANGE_FALLBACK, cancelEmailChange, confirmEmailChange } from './services/emailChange';
import { errorMessage } from './services/errors';

/** Which link of a verified e-mail change the page opened: the new address's, or the old address's. */
export type EmailChangeLink = 'confirm' | 'cancel';

export type EmailChangeConfirmationEvent = { type: 'link.submitted' };

type LinkInput = { token: string; link: EmailChangeLink };

/**
 * The pages of the links a verified e-mail change mails (/email-change/confirm and /cancel): the
 * member presses the button (a mail scanner opening the link changes nothing), the server makes or
 * voids the change, and the page says which. A link without a well-formed token fails at once.
 */
export const emailChangeConfirmationMachine = setup({
  types: {
    context: {} as { token: string; link: EmailChangeLink; error: string | null; message: string | null },
    events: {} as EmailChangeConfirmationEvent,
    input: {} as { token: string | undefined; link: EmailChangeLink },
  },
  actors: {
    /** Resolves to what the page then says. */
    submitLink: fromPromise<string, LinkInput>(async ({ input, signal }) => {
      if (input.link === 'confirm') return emailChangeMessages.confirmed(await confirmEmailChange(input.token, { signal }));
      await cancelEmailChange(input.token, { signal });
      return emailChangeMessages.cancelled;
    }),
  },
  guards: {
    tokenMissing: ({ context }) => context.token === '',
  },
}).createMachine({
  id: 'emailChangeConfirmation',
  // A token that cannot be one (cut short by a mail client, edited) is never sent: the page says the contract's words.
  context: ({ input }) => {
    const token = parseBody(emailChangeLinkToken, input.token);
    return token.ok
      ? { token: token.value, link: input.link, error: null, message: null }
      : { token: '', link: input.link, error: token.message, message: null };
  },
  initial: 'idle',
  states: {
    idle: {
      always: { guard: 'tokenMissing', target: 'failure' },
      on: { 'link.submitted': 'submitting' },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        // Stryker disable next-line StringLiteral: nothing looks the invoked actor up by its id.
        id: 'submitLink',
        src: 'submitLink',
        input: ({ context }) => ({ token: context.token, link: context.link }),
        onDone: { target: 'confirmed', actions: assign({ message: ({ event }) => event.output }) },
        onError: {
          target: 'failure',
          actions: assign({
            error: ({ event, context }) =>
              errorMessage(event.error, context.link === 'confirm' ? CONFIRM_EMAIL_CHANGE_FALLBACK : CANCEL_EMAIL_CHANGE_FALLBACK),
          }),
        },
      },
    },
    /** Tried again on request, unless the link has no usable token (nothing to send). */
    failure: {
      on: { 'link.submitted': { guard: not('tokenMissing'), target: 'submitting', actions: assign({ error: null }) } },
    },
    confirmed: { type: 'final' },
  },
});
