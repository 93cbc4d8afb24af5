import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { ResetPasswordPayload } from '../../../server/src/contract/auth';
import { passwordResetMachine } from '../../../machines/passwordReset.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const forgotPassword = vi.fn<(payload: { email: string }, options: { signal: AbortSignal }) => Promise<void>>();
const resetPassword = vi.fn<(payload: ResetPasswordPayload, options: { signal: AbortSignal }) => Promise<void>>();
const machine = passwordResetMachine.provide({
  actors: {
    requestCode: fromPromise<void, { email: string }>(({ input, signal }) => forgotPassword(input, { signal })),
    resetPassword: fromPromise<void, ResetPasswordPayload>(({ input, signal }) => resetPassword(input, { signal })),
  },
});

// The two POSTs of SPEC §7 are doubles; the machine's own actors call them.
let codeRequest: Deferred<void>;
let resetRequest: Deferred<void>;

beforeEach(() => {
  codeRequest = deferred<void>();
  resetRequest = deferred<void>();
  forgotPassword.mockReset().mockReturnValue(codeRequest.promise);
  resetPassword.mockReset().mockReturnValue(resetRequest.promise);
});

function start(code?: string) {
  const session = recordingAuth();
  const actor = createActor(machine, { input: { auth: session.auth, code }, inspect: session.inspect }).start();
  return { actor, session };
}

const validReset = { code: 'abc123', password: 'secret1', passwordConfirmation: 'secret1' };

describe('passwordReset (SPEC §2 Reset Password, §4 Reset flow, §5, §8)', () => {
  describe('step 1: the e-mail', () => {
    it('is where the flow starts without a code in the URL', () => {
      const { actor } = start();
      expect(actor.getSnapshot().matches({ emailEntry: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context.error).toBeNull();
    });

    it.each([
      ['', 'Please enter your email.'],
      ['   ', 'Please enter your email.'],
      ['not-an-email', 'Please enter a valid email address.'],
      ['a@b', 'Please enter a valid email address.'],
    ])('refuses %j with %j and sends nothing', (email, message) => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email });
      expect(actor.getSnapshot().matches({ emailEntry: 'failure' })).toBe(true);
      expect(actor.getSnapshot().context.error).toBe(message);
      expect(forgotPassword).not.toHaveBeenCalled();
    });

    it("sends the trimmed address, shows 'Sending...' (busy) and ignores a second submission meanwhile", () => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email: '' });
      actor.send({ type: 'email.submitted', email: '  eater@example.com ' });
      const snapshot = actor.getSnapshot();
      expect(snapshot.matches({ emailEntry: 'sending' })).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.error).toBeNull();
      expect(snapshot.context.email).toBe('eater@example.com');
      expect(forgotPassword).toHaveBeenCalledWith({ email: 'eater@example.com' }, { signal: expect.any(AbortSignal) });

      actor.send({ type: 'email.submitted', email: 'other@example.com' });
      expect(forgotPassword).toHaveBeenCalledTimes(1);
      expect(actor.getSnapshot().matches({ emailEntry: 'sending' })).toBe(true);
    });

    it('moves to step 2 once the code is sent', async () => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email: 'eater@example.com' });
      expect(actor.getSnapshot().context.codeSent).toBe(false);
      codeRequest.resolve();
      await nextTick();
      const snapshot = actor.getSnapshot();
      expect(snapshot.matches({ codeEntry: 'idle' })).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(false);
      expect(snapshot.context.codeSent).toBe(true);
    });

    it("shows the server's message when sending fails, and can be sent again", async () => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email: 'eater@example.com' });
      codeRequest.reject(new Error('Too many requests'));
      await nextTick();
      expect(actor.getSnapshot().matches({ emailEntry: 'failure' })).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('Too many requests');

      forgotPassword.mockResolvedValue();
      actor.send({ type: 'email.submitted', email: 'eater@example.com' });
      expect(actor.getSnapshot().context.error).toBeNull();
      await nextTick();
      expect(actor.getSnapshot().matches('codeEntry')).toBe(true);
    });

    it("falls back to 'Failed to send reset code' when the failure has no message", async () => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email: 'eater@example.com' });
      codeRequest.reject(new Error(''));
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe('Failed to send reset code');
    });
  });

  describe('step 2: code and new password', () => {
    it('is shown directly when the URL has a code, which is prefilled (trimmed)', () => {
      const { actor } = start('  abc123 ');
      expect(actor.getSnapshot().matches({ codeEntry: 'idle' })).toBe(true);
      expect(actor.getSnapshot().context.code).toBe('abc123');
    });

    it('is not shown for a blank code in the URL', () => {
      const { actor } = start('   ');
      expect(actor.getSnapshot().matches({ emailEntry: 'idle' })).toBe(true);
    });

    it.each([
      [{ ...validReset, code: ' ' }, 'Please enter the reset code.'],
      [{ ...validReset, password: '' }, 'Please fill in both password fields.'],
      [{ ...validReset, passwordConfirmation: '' }, 'Please fill in both password fields.'],
      [{ ...validReset, passwordConfirmation: 'secret2' }, 'Passwords do not match.'],
      [{ ...validReset, password: 'short', passwordConfirmation: 'short' }, 'Password should be at least 6 characters.'],
    ])('refuses %j with %j and sends nothing', (fields, message) => {
      const { actor } = start('abc123');
      actor.send({ type: 'reset.submitted', ...fields });
      expect(actor.getSnapshot().matches({ codeEntry: 'failure' })).toBe(true);
      expect(actor.getSnapshot().context.error).toBe(message);
      expect(resetPassword).not.toHaveBeenCalled();
    });

    it("resets with the trimmed code, shows 'Resetting...' (busy) and ignores further input meanwhile", () => {
      const { actor } = start('abc123');
      actor.send({ type: 'reset.submitted', ...validReset, password: '' });
      actor.send({ type: 'reset.submitted', ...validReset, code: ' typed-code ' });
      const snapshot = actor.getSnapshot();
      expect(snapshot.matches({ codeEntry: 'resetting' })).toBe(true);
      expect(snapshot.hasTag('busy')).toBe(true);
      expect(snapshot.context.error).toBeNull();
      expect(snapshot.context.code).toBe('typed-code');
      expect(resetPassword).toHaveBeenCalledWith(
        { code: 'typed-code', password: 'secret1', passwordConfirmation: 'secret1' },
        { signal: expect.any(AbortSignal) },
      );

      actor.send({ type: 'reset.submitted', ...validReset });
      actor.send({ type: 'code.requestedAgain' });
      expect(actor.getSnapshot().matches({ codeEntry: 'resetting' })).toBe(true);
      expect(resetPassword).toHaveBeenCalledTimes(1);
    });

    it('ends the flow on success and tells the session, which shows /login', async () => {
      const { actor, session } = start('abc123');
      actor.send({ type: 'reset.submitted', ...validReset });
      expect(session.received).toEqual([]);
      resetRequest.resolve();
      await nextTick();
      expect(actor.getSnapshot().status).toBe('done');
      expect(session.received).toEqual([{ type: 'password.reset' }]);
    });

    it("shows the server's message, or 'Password reset failed', when the reset fails", async () => {
      const { actor } = start('abc123');
      actor.send({ type: 'reset.submitted', ...validReset });
      resetRequest.reject(new Error('Incorrect code provided'));
      await nextTick();
      expect(actor.getSnapshot().matches({ codeEntry: 'failure' })).toBe(true);
      expect(actor.getSnapshot().context.error).toBe('Incorrect code provided');

      resetPassword.mockRejectedValue(new Error(''));
      actor.send({ type: 'reset.submitted', ...validReset });
      await nextTick();
      expect(actor.getSnapshot().context.error).toBe('Password reset failed');
    });

    it('goes back to step 1 to ask for a new code, clearing the error', async () => {
      const { actor } = start();
      actor.send({ type: 'email.submitted', email: 'eater@example.com' });
      codeRequest.resolve();
      await nextTick();
      actor.send({ type: 'reset.submitted', ...validReset, code: '' });
      expect(actor.getSnapshot().context.error).not.toBeNull();

      actor.send({ type: 'code.requestedAgain' });
      const snapshot = actor.getSnapshot();
      expect(snapshot.matches({ emailEntry: 'idle' })).toBe(true);
      expect(snapshot.context.error).toBeNull();
      expect(snapshot.context.codeSent).toBe(false);
    });
  });
});
