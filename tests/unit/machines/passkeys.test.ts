import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { PasskeyCancelledError } from '../../../machines/services/webauthn';
import { passkeysMachine } from '../../../machines/passkeys.machine';
import { passkeyMessages, type PasskeySummary } from '../../../server/src/contract/passkeys';
import { deferred, type Deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** API doubles, shaped like the service calls the machine's actors make; each test sets what they answer. */
const listPasskeys = vi.fn<(options: { signal: AbortSignal }) => Promise<PasskeySummary[]>>();
const addPasskey = vi.fn<(name: string, options: { signal: AbortSignal }) => Promise<PasskeySummary>>();
const removePasskey = vi.fn<(id: number, options: { signal: AbortSignal }) => Promise<void>>();
const machine = passkeysMachine.provide({
  actors: {
    listPasskeys: fromPromise<PasskeySummary[]>(({ signal }) => listPasskeys({ signal })),
    addPasskey: fromPromise<PasskeySummary, { name: string }>(({ input, signal }) => addPasskey(input.name, { signal })),
    removePasskey: fromPromise<void, { id: number }>(({ input, signal }) => removePasskey(input.id, { signal })),
  },
});

const LAPTOP: PasskeySummary = { id: 3, name: 'Laptop', createdAt: '2025-01-01T00:00:00.000Z', lastUsedAt: null };
const PHONE: PasskeySummary = { id: 4, name: 'Phone', createdAt: '2025-02-01T00:00:00.000Z', lastUsedAt: '2025-02-02T00:00:00.000Z' };

let list: Deferred<PasskeySummary[]>;
let add: Deferred<PasskeySummary>;
let remove: Deferred<void>;

beforeEach(() => {
  list = deferred();
  add = deferred();
  remove = deferred();
  listPasskeys.mockReset().mockReturnValue(list.promise);
  addPasskey.mockReset().mockReturnValue(add.promise);
  removePasskey.mockReset().mockReturnValue(remove.promise);
});

async function listed(passkeys: PasskeySummary[]) {
  const actor = createActor(machine).start();
  list.resolve(passkeys);
  await nextTick();
  return actor;
}

describe('passkeys (Security › Passkeys)', () => {
  it('loads the list (busy), then shows it', async () => {
    const actor = createActor(machine).start();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context).toEqual({ passkeys: [], removing: null, error: null, notice: null });
    expect(listPasskeys).toHaveBeenCalledWith({ signal: expect.any(AbortSignal) });
    list.resolve([LAPTOP]);
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.passkeys).toEqual([LAPTOP]);
  });

  it("a failed load says why (the server's words or the fallback) and can be retried", async () => {
    const actor = createActor(machine).start();
    list.reject(new Error('Not authenticated'));
    await nextTick();
    expect(actor.getSnapshot().matches('loadFailure')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context.error).toBe('Not authenticated');
    // Nothing but a reload leaves the failure.
    actor.send({ type: 'add.requested', name: 'x' });
    expect(actor.getSnapshot().matches('loadFailure')).toBe(true);

    listPasskeys.mockRejectedValue(new Error(''));
    actor.send({ type: 'passkeys.reloaded' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(passkeyMessages.loadFailed);
  });

  it('adds a named passkey (busy), lists it last and says so; clears earlier messages', async () => {
    const actor = await listed([LAPTOP]);
    actor.send({ type: 'remove.requested', id: LAPTOP.id });
    actor.send({ type: 'remove.confirmed' });
    remove.reject(new Error('Passkey not found'));
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe('Passkey not found');

    actor.send({ type: 'add.requested', name: 'Phone' });
    expect(actor.getSnapshot().matches('adding')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(addPasskey).toHaveBeenCalledWith('Phone', { signal: expect.any(AbortSignal) });
    // A second request meanwhile is ignored.
    actor.send({ type: 'add.requested', name: 'Other' });
    actor.send({ type: 'remove.requested', id: LAPTOP.id });
    expect(addPasskey).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches('adding')).toBe(true);
    add.resolve(PHONE);
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [LAPTOP, PHONE], notice: passkeyMessages.added, error: null });
  });

  it('a member who closes the dialog gets a calm notice, not an error', async () => {
    const actor = await listed([]);
    actor.send({ type: 'add.requested', name: '' });
    add.reject(new PasskeyCancelledError(passkeyMessages.addCancelled));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [], notice: passkeyMessages.addCancelled, error: null });
  });

  it('a refused or impossible add says why (its words or the fallback), the list unchanged', async () => {
    const actor = await listed([LAPTOP]);
    actor.send({ type: 'add.requested', name: '' });
    add.reject(new Error(passkeyMessages.unsupported));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [LAPTOP], error: passkeyMessages.unsupported, notice: null });

    addPasskey.mockRejectedValue(new Error(''));
    actor.send({ type: 'add.requested', name: '' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await nextTick();
    expect(actor.getSnapshot().context.error).toBe(passkeyMessages.addFailed);
  });

  it('removes a listed passkey after a confirmation (busy while removing), and says so', async () => {
    const actor = await listed([LAPTOP, PHONE]);
    actor.send({ type: 'add.requested', name: '' });
    add.reject(new PasskeyCancelledError(passkeyMessages.addCancelled));
    await nextTick();

    actor.send({ type: 'remove.requested', id: PHONE.id });
    expect(actor.getSnapshot().matches('confirmingRemoval')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ removing: PHONE, notice: null, error: null });
    expect(removePasskey).not.toHaveBeenCalled();

    actor.send({ type: 'remove.confirmed' });
    expect(actor.getSnapshot().matches('removing')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(removePasskey).toHaveBeenCalledWith(PHONE.id, { signal: expect.any(AbortSignal) });
    remove.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [LAPTOP], removing: null, notice: passkeyMessages.removed });
  });

  it('cancelling the confirmation removes nothing; an unlisted id is not offered', async () => {
    const actor = await listed([LAPTOP]);
    actor.send({ type: 'remove.requested', id: 99 });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    actor.send({ type: 'remove.requested', id: LAPTOP.id });
    actor.send({ type: 'remove.cancelled' });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [LAPTOP], removing: null });
    expect(removePasskey).not.toHaveBeenCalled();
  });

  it('a refused removal says why (its words or the fallback) and keeps the passkey', async () => {
    const actor = await listed([LAPTOP]);
    actor.send({ type: 'remove.requested', id: LAPTOP.id });
    actor.send({ type: 'remove.confirmed' });
    remove.reject(new Error(''));
    await nextTick();
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(actor.getSnapshot().context).toMatchObject({ passkeys: [LAPTOP], removing: null, error: passkeyMessages.removeFailed });
  });
});
