import { describe, expect, it } from 'vitest';
import {
  emailChangeCancelBody,
  emailChangeConfirmBody,
  emailChangeLinkToken,
  emailChangeMessages,
} from '../../../server/src/contract/emailChange';
import { firstError, parseBody } from '../../../server/src/contract/schema';

/** The e-mail change link's token rule, as the link page and the two routes read it (no HTTP). */

const TOKEN = `7.${'a'.repeat(43)}`;
const NOT_TOKENS = [undefined, null, 42, '', `7.${'a'.repeat(42)}`, `0.${'a'.repeat(43)}`, `x7.${'a'.repeat(43)}`, `7.${'a'.repeat(43)}!`];

describe('one token rule, each reader in its words', () => {
  it.each(NOT_TOKENS)('%j is no token: the page says the link is incomplete, each route that it is not valid', (token) => {
    expect(firstError(emailChangeLinkToken, token)).toBe(emailChangeMessages.missingToken);
    expect(parseBody(emailChangeConfirmBody, { token })).toEqual({ ok: false, message: emailChangeMessages.invalidConfirmLink });
    expect(parseBody(emailChangeCancelBody, { token })).toEqual({ ok: false, message: emailChangeMessages.invalidCancelLink });
  });

  it('a body that is not an object, or has no token, is refused alike', () => {
    for (const body of [undefined, null, 'text', [], {}]) {
      expect(parseBody(emailChangeConfirmBody, body)).toEqual({ ok: false, message: emailChangeMessages.invalidConfirmLink });
      expect(parseBody(emailChangeCancelBody, body)).toEqual({ ok: false, message: emailChangeMessages.invalidCancelLink });
    }
  });

  it('a well-formed token passes on both sides', () => {
    expect(firstError(emailChangeLinkToken, TOKEN)).toBeNull();
    expect(parseBody(emailChangeConfirmBody, { token: TOKEN })).toEqual({ ok: true, value: { token: TOKEN } });
    expect(parseBody(emailChangeCancelBody, { token: `1234567890123456.${'-_'.repeat(21)}A` })).toMatchObject({ ok: true });
  });
});
