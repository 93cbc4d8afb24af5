import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AuthResponse } from '../../../server/src/contract/auth';
import { passkeyMessages } from '../../../server/src/contract/passkeys';
import { PasskeyCancelledError } from '../../../machines/services/webauthn';
import { passkeySignInMachine } from '../../../machines/passkeySignIn.machine';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick, recordingAuth } from './machineTestKit';

/** The API double, shaped like the service call both of the machine's actors make; each test sets what it answers. */
const signInWithPasskey = vi.fn<(options: { signal: AbortSignal; autofill?: boolean }) => Promise<AuthResponse>>();
const machine = passkeySignInMachine.provide({
  actors: {
    signIn: fromPromise<AuthResponse>(({ signal }) => signInWithPasskey({ signal })),
    autofill: fromPromise<AuthResponse>(({ signal }) => signInWithPasskey({ signal, autofill: true })),
  },
});

const answer: AuthResponse = { jwt: 'passkey-token', user: { id: 12, createdAt: '2025-01-01T00:00:00.000Z' } };

let dialog: Deferred<AuthResponse>;
let autofill: Deferred<AuthResponse>;

beforeEach(() => {
  dialog = deferred();
  autofill = deferred();
  signInWithPasskey.mockReset().mockImplementation(({ autofill: suggestions }) => (suggestions ? autofill.promise : dialog.promise));
});

function start() {
  const session = recordingAuth();
  const actor = createActor(machine, { input: { auth: session.auth }, inspect: session.inspect }).start();
  return { actor, session };
}

describe('passkeySignIn (Log In with a passkey)', () => {
  it('waits at rest', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ returnTo: '/', error: null, notice: null });
    expect(signInWithPasskey).not.toHaveBeenCalled();
  });

  it('the button: the dialog (busy), then the session goes to the auth actor with the return path', async () => {
    const { actor, session } = start();
    actor.send({ type: 'passkey.requested', returnTo: '/profile' });
    expect(actor.getSnapshot().matches('signingIn')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(signInWithPasskey).toHaveBeenCalledExactlyOnceWith({ signal: expect.any(AbortSignal) });
    // A second click meanwhile starts nothing new.
    expect(session.received).toEqual([]);
    dialog.resolve(answer);
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/profile' }]);
  });

  it('an unsafe return path becomes /', async () => {
    const { actor, session } = start();
    actor.send({ type: 'passkey.requested', returnTo: 'https://evil.example/' });
    dialog.resolve(answer);
    await nextTick();
    expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/' }]);
  });

  it('a closed dialog gets a calm notice; a refusal its words or the fallback; the button works again and clears them', async () => {
    const { actor, session } = start();
    actor.send({ type: 'passkey.requested', returnTo: '/' });
    dialog.reject(new PasskeyCancelledError(passkeyMessages.cancelled));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ notice: passkeyMessages.cancelled, error: null });

    dialog = deferred();
    actor.send({ type: 'passkey.requested', returnTo: '/' });
    expect(actor.getSnapshot().context).toMatchObject({ notice: null, error: null });
    dialog.reject(new Error('Your account has been blocked by an administrator'));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Your account has been blocked by an administrator', notice: null });

    dialog = deferred();
    actor.send({ type: 'passkey.requested', returnTo: '/' });
    expect(actor.getSnapshot().context.error).toBeNull();
    dialog.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(passkeyMessages.signInFailed);
    expect(session.received).toEqual([]);
  });

  it('autofill: waits in the background (not busy); a picked passkey signs in with the return path', async () => {
    const { actor, session } = start();
    actor.send({ type: 'autofill.requested', returnTo: '/profile' });
    expect(actor.getSnapshot().matches('autofill')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(signInWithPasskey).toHaveBeenCalledExactlyOnceWith({ signal: expect.any(AbortSignal), autofill: true });
    autofill.resolve(answer);
    await nextTick();
    expect(actor.getSnapshot().status).toBe('done');
    expect(session.received).toEqual([{ type: 'session.started', response: answer, returnTo: '/profile' }]);
  });

  it('autofill: unavailable or dismissed says nothing; a refusal says why; the button takes over from it', async () => {
    const { actor } = start();
    actor.send({ type: 'autofill.requested', returnTo: '/' });
    autofill.reject(new PasskeyCancelledError(''));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ error: null, notice: null });

    autofill = deferred();
    actor.send({ type: 'autofill.requested', returnTo: '/' });
    autofill.reject(new Error(passkeyMessages.unknownPasskey));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(passkeyMessages.unknownPasskey);

    autofill = deferred();
    actor.send({ type: 'autofill.requested', returnTo: '/' });
    autofill.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(passkeyMessages.signInFailed);

    // While the suggestions wait, the button stops them and opens the dialog.
    autofill = deferred();
    actor.send({ type: 'autofill.requested', returnTo: '/' });
    const autofillCall = signInWithPasskey.mock.calls.at(-1);
    actor.send({ type: 'passkey.requested', returnTo: '/profile' });
    expect(actor.getSnapshot().matches('signingIn')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ returnTo: '/profile', error: null });
    expect(autofillCall?.[0]?.signal?.aborted).toBe(true);
    // Autofill is only started from rest.
    actor.send({ type: 'autofill.requested', returnTo: '/' });
    expect(actor.getSnapshot().matches('signingIn')).toBe(true);
  });
});
