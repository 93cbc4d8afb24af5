import { errors } from '@strapi/utils';
import { describe, expect, it } from 'vitest';
import {
  goalsError,
  informationError,
  passwordChangeError,
  profileMessages,
  type InformationFields,
} from '../../src/contract/profileRules';
import { changePasswordGuard, normalizeProfileUpdate } from '../../src/extensions/users-permissions/profile-guard';
import type { RequestContext } from '../../src/request-context';

/**
 * The SPA's profile forms and the server guard read one set of rules (src/contract/profileRules.ts):
 * what a form refuses, the guard refuses with the same words, and what a form sends, the guard keeps.
 */

const valid: InformationFields = { username: 'tbone', email: 'tbone@example.com', height: 180, currentWeight: 80 };

/** The PUT /api/users/:id body the Information form sends for these fields. */
const informationBody = (fields: InformationFields) => ({
  username: fields.username,
  email: fields.email,
  bmi: { height: fields.height, currentWeight: fields.currentWeight, Gender: 'Male', date_of_birth: null, idealBmiWeight: '72.9' },
});

function guardMessage(body: unknown): string | null {
  try {
    normalizeProfileUpdate(body);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(errors.ValidationError);
    return (error as Error).message;
  }
}

describe('profile rules shared by the forms and the server guard', () => {
  it.each<[string, Partial<InformationFields>, string]>([
    ['a short username', { username: 'ab' }, profileMessages.usernameTooShort],
    ['a long username', { username: 'a'.repeat(31) }, profileMessages.usernameTooLong],
    ['a username with other characters', { username: 'rib eye!' }, profileMessages.usernameInvalidCharacters],
    ['an invalid e-mail', { email: 'tbone.example.com' }, profileMessages.invalidEmail],
    ['a zero height', { height: 0 }, profileMessages.notPositive],
    ['a height below 100 cm', { height: 99 }, profileMessages.heightRange],
    ['a weight above 300 kg', { currentWeight: 301 }, profileMessages.weightRange],
  ])('refuses %s with the same message', (_, change, message) => {
    const fields = { ...valid, ...change };
    expect(informationError(fields)).toBe(message);
    expect(guardMessage(informationBody(fields))).toBe(message);
  });

  it('accepts what the Information form accepts', () => {
    expect(informationError(valid)).toBeNull();
    expect(guardMessage(informationBody(valid))).toBeNull();
  });

  it('checks height and weight once either is sent, then both, on both sides (issue 21)', () => {
    const { height: _height, currentWeight: _weight, ...unmeasured } = valid;
    expect(informationError(unmeasured)).toBeNull();
    expect(guardMessage(informationBody(unmeasured))).toBeNull();
    expect(normalizeProfileUpdate(informationBody(unmeasured)).bmi).not.toHaveProperty('height');
    for (const one of [{ height: 180 }, { currentWeight: 80 }]) {
      expect(informationError({ ...unmeasured, ...one })).toBe(profileMessages.notPositive);
      expect(guardMessage(informationBody({ ...unmeasured, ...one }))).toBe(profileMessages.notPositive);
    }
  });

  it.each([[29], [301]])('refuses a goal weight of %i kg on both sides', (goal) => {
    expect(goalsError({ goal_weight: goal })).toBe(profileMessages.goalWeightRange);
    expect(guardMessage({ goal_weight: goal })).toBe(profileMessages.goalWeightRange);
  });

  it('lets "no goal" (0) through on both sides', () => {
    expect(goalsError({ goal_weight: 0 })).toBeNull();
    expect(guardMessage({ goal_weight: 0 })).toBeNull();
  });

  it('refuses a new password under 6 characters with the same message', async () => {
    const body = { currentPassword: 'old-secret', password: 'abc12', passwordConfirmation: 'abc12' };
    expect(passwordChangeError(body)).toBe(profileMessages.passwordTooShort);
    let reachedStrapi = false;
    const ctx = { request: { body } } as unknown as RequestContext;
    await expect(
      changePasswordGuard(ctx, async () => {
        reachedStrapi = true;
      }),
    ).rejects.toMatchObject({ name: 'ValidationError', message: profileMessages.passwordTooShort });
    expect(reachedStrapi).toBe(false);
  });

  it('names the keys it does not take in the details too, and only then', () => {
    const details = (body: unknown) => {
      try {
        normalizeProfileUpdate(body);
        return null;
      } catch (error) {
        return (error as errors.ValidationError).details;
      }
    };
    expect(details({ confirmed: true, blocked: false })).toEqual({ fields: ['confirmed', 'blocked'] });
    expect(details({ bmi: { id: 1 } })).toEqual({ fields: ['bmi.id'] });
    // The username is checked before the bmi's keys: its refusal names no field.
    expect(details({ username: 'ab', bmi: { id: 1 } })).toEqual({});
  });
});
