// @ts-nocheck
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { supportChatMachine } from '../../../machines/supportChat.machine';
import { deferred } from '../../support/deferred';
import { nextTick } from './machineTestKit';

/** The app provides whether a widget is configured and how it loads; these are its doubles. */
function start({ configured, load }: { configured: boolean; load?: () => Promise<void> }) {
  const maximizeWidget = vi.fn();
  const loadWidget = vi.fn(load ?? (() => new Promise<void>(() => {})));
  const machine = supportChatMachine.provide({
    guards: { configured: () => configured },
    actors: { loadWidget: fromPromise(() => loadWidget()) },
    actions: { maximizeWidget },
  });
  const actor = createActor(machine).start();
  return { actor, maximizeWidget, loadWidget };
}

describe('supportChat (SPEC §2 Profile Support tab, §7 live-chat widget)', () => {
  it('loads nothing until the chat is asked for', () => {
    const { actor, loadWidget } = start({ configured: true });
    expect(actor.getSnapshot().matches('idle')).toBe(true);
    expect(loadWidget).not.toHaveBeenCalled();
  });

  it('loads the widget when asked (busy), then maximises it', async () => {
    const widget = deferred<void>();
    const { actor, maximizeWidget, loadWidget } = start({ configured: true, load: () => widget.promise });
    actor.send({ type: 'chat.requested' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(loadWidget).toHaveBeenCalledTimes(1);
    expect(maximizeWidget).not.toHaveBeenCalled();

    widget.resolve();
    await nextTick();
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expect(maximizeWidget).toHaveBeenCalledTimes(1);
  });

  it('maximises the loaded widget again on each request, without reloading it', async () => {
    const { actor, maximizeWidget, loadWidget } = start({ configured: true, load: () => Promise.resolve() });
    actor.send({ type: 'chat.requested' });
    await nextTick();
    actor.send({ type: 'chat.requested' });
    expect(actor.getSnapshot().matches('open')).toBe(true);
    expect(maximizeWidget).toHaveBeenCalledTimes(2);
    expect(loadWidget).toHaveBeenCalledTimes(1);
  });

  it('says the chat is unavailable when the widget cannot load, and tries again on request', async () => {
    const { actor, loadWidget } = start({ configured: true, load: () => Promise.reject(new Error('blocked')) });
    actor.send({ type: 'chat.requested' });
    await nextTick();
    expect(actor.getSnapshot().matches('unavailable')).toBe(true);

    loadWidget.mockResolvedValue();
    actor.send({ type: 'chat.requested' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    await nextTick();
    expect(actor.getSnapshot().matches('open')).toBe(true);
  });

  it('offers e-mail instead when no widget is configured', () => {
    const { actor, loadWidget } = start({ configured: false });
    actor.send({ type: 'chat.requested' });
    expect(actor.getSnapshot().matches('notConfigured')).toBe(true);
    expect(loadWidget).not.toHaveBeenCalled();
  });

  describe('without the app providing anything', () => {
    it('counts as not configured', () => {
      const actor = createActor(supportChatMachine).start();
      actor.send({ type: 'chat.requested' });
      expect(actor.getSnapshot().matches('notConfigured')).toBe(true);
    });

    it('cannot load a widget, so a configured chat is unavailable', async () => {
      const actor = createActor(supportChatMachine.provide({ guards: { configured: () => true } })).start();
      actor.send({ type: 'chat.requested' });
      await nextTick();
      expect(actor.getSnapshot().matches('unavailable')).toBe(true);
    });
  });
});
