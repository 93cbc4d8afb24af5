import { describe, expect, it } from 'vitest';
import { errors } from '@strapi/utils';
import onlyYourself from '../../src/policies/only-yourself';
import ownPicture from '../../src/policies/own-picture';

/**
 * The ownership policies without Strapi: they only pass or refuse, with the 403 the member sees
 * (over HTTP, with the victim re-read: profile-security.test.ts).
 */

const member = { id: 7 };
const refusal = (run: () => boolean) => {
  try {
    return run();
  } catch (error) {
    expect(error).toBeInstanceOf(errors.PolicyError);
    return (error as Error).message;
  }
};

describe('global::only-yourself', () => {
  const update = (id: string | undefined, user: { id: number } | null = member) =>
    refusal(() => onlyYourself({ state: { user: user ?? undefined }, params: { id } }));

  it("passes the member's own id", () => {
    expect(update('7')).toBe(true);
  });

  it('refuses any other id: another member, a documentId, none', () => {
    for (const id of ['8', '07', 'abc123documentid', '7 ', undefined]) {
      expect(update(id), String(id)).toBe('You can only update your own profile');
    }
  });

  it('refuses a request without a member', () => {
    expect(update('7', null)).toBe(false);
  });
});

describe('global::own-picture', () => {
  const USERS = 'plugin::users-permissions.user';
  const upload = (body: unknown, user: { id: number } | null = member) =>
    refusal(() => ownPicture({ state: { user: user ?? undefined }, request: { body } }));

  it("passes an upload onto the member's own picture", () => {
    expect(upload({ refId: '7', ref: USERS, field: 'profile_picture' })).toBe(true);
  });

  it("refuses an upload onto another member's picture", () => {
    for (const refId of ['8', '1', 'abc']) {
      expect(upload({ refId, ref: USERS, field: 'profile_picture' })).toBe('You can only change your own profile picture');
    }
  });

  it("leaves what is no profile picture upload to the route's guard, and an API token to Strapi", () => {
    for (const body of [
      {},
      undefined,
      { refId: '8', ref: 'api::ingredient.ingredient', field: 'image' },
      { refId: '8', ref: USERS, field: 'avatar' },
    ]) {
      expect(upload(body), JSON.stringify(body)).toBe(true);
    }
    expect(upload({ refId: '8', ref: USERS, field: 'profile_picture' }, null)).toBe(true);
  });
});
