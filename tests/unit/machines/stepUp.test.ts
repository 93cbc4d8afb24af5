import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { StepUpProof } from '../../../machines/services/stepUp';
import { stepUpMessages, type StepUpMethod } from '../../../server/src/contract/stepUp';
import { hasTypedMethod, stepUpMachine, typedMethod } from '../../../machines/stepUp.machine';
import { askStepUp } from '../../../machines/shared/stepUpGate';
import { configureApiClient, configureStepUp } from '../../../machines/services/sessionHooks';
import { deleteAccount } from '../../../machines/services/account';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const confirmStepUp = vi.fn<(proof: StepUpProof, options: { signal: AbortSignal }) => Promise<void>>();

let request: Deferred<void>;
beforeEach(() => {
  request = deferred<void>();
  confirmStepUp.mockReset().mockReturnValue(request.promise);
});

const machine = stepUpMachine.provide({
  actors: { confirm: fromPromise<void, StepUpProof>(({ input, signal }) => confirmStepUp(input, { signal })) },
});
const start = () => createActor(machine).start();

describe('stepUp (the "Confirm it\'s you" dialog)', () => {
  it('asks with the methods the server named, and sends the password, or the code when two-factor is on', async () => {
    const actor = start();
    // Nothing asked, no dialog, until a call is refused.
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ methods: [], error: null });
    actor.send({ type: 'stepUp.requested', methods: ['password', 'passkey'] });
    expect(actor.getSnapshot().matches('asking')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().context.methods).toEqual(['password', 'passkey']);
    actor.send({ type: 'stepUp.submitted', secret: 'pw' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    // The call's code loads with the first proof (off the first paint).
    await vi.waitFor(() =>
      expect(confirmStepUp).toHaveBeenCalledWith({ method: 'password', secret: 'pw' }, { signal: expect.any(AbortSignal) }),
    );

    const coded = start();
    coded.send({ type: 'stepUp.requested', methods: ['code'] });
    coded.send({ type: 'stepUp.submitted', secret: '123456' });
    await vi.waitFor(() => expect(confirmStepUp).toHaveBeenCalledTimes(2));
    expect(confirmStepUp).toHaveBeenLastCalledWith({ method: 'code', secret: '123456' }, { signal: expect.any(AbortSignal) });
  });

  it('names the typed method: the code over the password; no field for a passkey alone', () => {
    expect(typedMethod(['code', 'passkey'])).toBe('code');
    expect(typedMethod(['password', 'passkey'])).toBe('password');
    const cases: StepUpMethod[][] = [['passkey'], [], ['password'], ['code', 'passkey']];
    expect(cases.map(hasTypedMethod)).toEqual([false, false, true, true]);
  });

  it('reports a confirmation to the waiting calls, and a cancellation', async () => {
    const actor = start();
    const confirmed = askStepUp(actor, ['password']);
    actor.send({ type: 'stepUp.submitted', secret: 'pw' });
    request.resolve();
    await expect(confirmed).resolves.toBe(true);
    expect(actor.getSnapshot().matches('idle')).toBe(true);

    const cancelled = askStepUp(actor, ['password']);
    actor.send({ type: 'stepUp.cancelled' });
    await expect(cancelled).resolves.toBe(false);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });

  it('lets two refused calls wait for one dialog', async () => {
    const actor = start();
    const first = askStepUp(actor, ['password']);
    const second = askStepUp(actor, ['code']);
    // The second request does not change what the open dialog asks.
    expect(actor.getSnapshot().context.methods).toEqual(['password']);
    actor.send({ type: 'stepUp.passkeyChosen' });
    await vi.waitFor(() => expect(confirmStepUp).toHaveBeenCalledWith({ method: 'passkey' }, { signal: expect.any(AbortSignal) }));
    request.resolve();
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
  });

  it("shows the server's refusal, or the fallback, and asks again", async () => {
    const actor = start();
    actor.send({ type: 'stepUp.requested', methods: ['password'] });
    actor.send({ type: 'stepUp.submitted', secret: 'wrong' });
    request.reject(new Error(stepUpMessages.wrongPassword));
    await nextTick();
    expect(actor.getSnapshot().matches('failure')).toBe(true);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(stepUpMessages.wrongPassword);

    confirmStepUp.mockRejectedValue(new Error(''));
    actor.send({ type: 'stepUp.submitted', secret: 'again' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(stepUpMessages.failed);
    actor.send({ type: 'stepUp.passkeyChosen' });
    expect(actor.getSnapshot().matches('verifying')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a new request starts clean', async () => {
    const actor = start();
    actor.send({ type: 'stepUp.requested', methods: ['password'] });
    actor.send({ type: 'stepUp.submitted', secret: 'wrong' });
    request.reject(new Error('no'));
    await nextTick();
    const cancelled = askStepUp(actor, ['password']);
    actor.send({ type: 'stepUp.cancelled' });
    await expect(cancelled).resolves.toBe(false);
    actor.send({ type: 'stepUp.requested', methods: ['code'] });
    expect(actor.getSnapshot().context).toEqual({ methods: ['code'], error: null });
  });
});

describe('API client: a call refused for want of a step-up', () => {
  const refusal = () =>
    Response.json(
      {
        data: null,
        error: { status: 403, name: 'PolicyError', message: stepUpMessages.required, details: { stepUp: true, methods: ['password'] } },
      },
      { status: 403 },
    );
  let answers: Response[];
  let sent: number;
  beforeEach(() => {
    sent = 0;
    configureApiClient({ getToken: () => 'token', onUnauthorized: () => {} });
    vi.stubGlobal('fetch', async () => {
      sent += 1;
      return answers.shift() ?? Response.json({ ok: true });
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    configureApiClient({ getToken: () => null, onUnauthorized: () => {} });
  });

  it('waits for the member, then is sent once more', async () => {
    answers = [refusal(), Response.json({ ok: true })];
    const asked = vi.fn(async () => true);
    const remove = configureStepUp(asked);
    await expect(deleteAccount()).resolves.toBeUndefined();
    expect(asked).toHaveBeenCalledWith(['password']);
    expect(sent).toBe(2);
    remove();
  });

  it("fails with the server's words when the member cancels, and asks only once", async () => {
    answers = [refusal()];
    configureStepUp(async () => false);
    await expect(deleteAccount()).rejects.toMatchObject({ message: stepUpMessages.required, status: 403 });
    expect(sent).toBe(1);
    answers = [refusal(), refusal()];
    const asked = vi.fn(async () => true);
    const remove = configureStepUp(asked);
    await expect(deleteAccount()).rejects.toMatchObject({ message: stepUpMessages.required });
    expect(asked).toHaveBeenCalledTimes(1);
    remove();
  });

  it('asks nobody before the dialog is there, or after it went, and not for another 403', async () => {
    answers = [refusal()];
    await expect(deleteAccount()).rejects.toMatchObject({ message: stepUpMessages.required });
    const asked = vi.fn(async () => true);
    configureStepUp(asked)();
    answers = [refusal(), Response.json({ data: null, error: { status: 403, message: 'Forbidden', details: {} } }, { status: 403 })];
    await expect(deleteAccount()).rejects.toMatchObject({ message: stepUpMessages.required });
    const remove = configureStepUp(asked);
    await expect(deleteAccount()).rejects.toMatchObject({ message: 'Forbidden' });
    expect(asked).not.toHaveBeenCalled();
    remove();
  });
});
