import { describe, expect, it } from 'vitest';
import { parseBody } from '../../../server/src/contract/schema';
import {
  givenCode,
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorLoginBody,
  twoFactorMessages,
  twoFactorRegenerateBody,
} from '../../../server/src/contract/twoFactor';

/** The two-factor bodies of the contract, read as the server's routes read them (no HTTP). */

const TICKET = 't'.repeat(43);

describe('enable: an app code only', () => {
  it.each([undefined, null, 'text', {}, { code: 123456 }, { code: '' }, { code: '12345' }, { code: 'k7m2p-9xq4r' }])(
    'refuses %j with the code message',
    (body) => {
      expect(parseBody(twoFactorEnableBody, body)).toEqual({ ok: false, message: twoFactorMessages.codeMissing });
    },
  );

  it('takes a code as apps show it', () => {
    expect(parseBody(twoFactorEnableBody, { code: ' 123 456 ' })).toEqual({ ok: true, value: { code: ' 123 456 ' } });
  });
});

describe('recovery codes: any code typed in', () => {
  it('refuses a missing or blank code, takes an app or a recovery code', () => {
    for (const body of [{}, { code: '  ' }, { code: 7 }]) {
      expect(parseBody(twoFactorRegenerateBody, body)).toEqual({ ok: false, message: twoFactorMessages.codeMissing });
    }
    expect(parseBody(twoFactorRegenerateBody, { code: 'k7m2p-9xq4r' }).ok).toBe(true);
    expect(parseBody(givenCode, '123456').ok).toBe(true);
    expect(parseBody(givenCode, undefined).ok).toBe(false);
  });
});

describe('disable: the password, then the code', () => {
  it('refuses a missing password first, whatever the code', () => {
    for (const body of [undefined, {}, { code: '123456' }, { password: '', code: '123456' }, { password: 42 }]) {
      expect(parseBody(twoFactorDisableBody, body)).toEqual({ ok: false, message: twoFactorMessages.wrongPassword });
    }
  });

  it('then a missing code', () => {
    expect(parseBody(twoFactorDisableBody, { password: 'secret' })).toEqual({ ok: false, message: twoFactorMessages.codeMissing });
    expect(parseBody(twoFactorDisableBody, { password: 'secret', code: '123456' }).ok).toBe(true);
  });
});

describe("the log-in's second step: the ticket, then the code", () => {
  it('a ticket that cannot be one is void, whatever the code', () => {
    for (const ticket of [undefined, 42, '', 't'.repeat(19), 't'.repeat(101)]) {
      expect(parseBody(twoFactorLoginBody, { ticket, code: '123456' })).toEqual({ ok: false, message: twoFactorMessages.ticketExpired });
    }
    expect(parseBody(twoFactorLoginBody, 'text')).toEqual({ ok: false, message: twoFactorMessages.ticketExpired });
  });

  it('then a missing code; the bounds of the ticket are taken', () => {
    expect(parseBody(twoFactorLoginBody, { ticket: TICKET })).toEqual({ ok: false, message: twoFactorMessages.codeMissing });
    for (const ticket of ['t'.repeat(20), 't'.repeat(100)]) {
      expect(parseBody(twoFactorLoginBody, { ticket, code: '123 456' })).toEqual({ ok: true, value: { ticket, code: '123 456' } });
    }
  });
});
