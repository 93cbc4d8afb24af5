import { describe, expect, it } from 'vitest';
import { SUCCESS_NOTICE_MS, successNotice } from '../../../../machines/shared/notice';

describe('successNotice: the notice-then-clear state', () => {
  it('is tagged success and leaves for its target when successMessage runs out', () => {
    expect(successNotice('idle')).toEqual({ tags: ['success'], after: { successMessage: 'idle' } });
  });

  it('can wait on another delay of the machine, with any transition', () => {
    const transition = { target: 'idle', actions: [] };
    expect(successNotice(transition, 'resumedMessage')).toEqual({ tags: ['success'], after: { resumedMessage: transition } });
  });

  it('waits SPEC §9 3000 ms', () => {
    expect(SUCCESS_NOTICE_MS).toBe(3000);
  });
});
