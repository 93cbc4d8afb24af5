import { describe, expect, it } from 'vitest';
import { profileMessages } from '../../../server/src/contract/profileRules';
import { cannotBeUpdated, profileUpdateBody, unknownProfileKeys } from '../../../server/src/contract/profileUpdate';
import { parseBody } from '../../../server/src/contract/schema';

/** PUT /api/users/:id as a whole, as the server guard reads it (no HTTP). */

const says = (body: unknown) => {
  const parsed = parseBody(profileUpdateBody, body);
  return parsed.ok ? null : parsed.message;
};
const saved = (body: unknown) => {
  const parsed = parseBody(profileUpdateBody, body);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value;
};

describe('which keys PUT /api/users/:id takes', () => {
  it('a JSON object, of known keys, not empty', () => {
    for (const body of [undefined, null, 'text', 42, [], [{ username: 'tbone' }]]) expect(says(body)).toBe(profileMessages.notAnObject);
    expect(says({})).toBe(profileMessages.nothingToUpdate);
    expect(says({ confirmed: true })).toBe('Field "confirmed" cannot be updated');
    expect(says({ confirmed: true, blocked: false, username: 'ab' })).toBe('Fields "confirmed", "blocked" cannot be updated');
    // Keys of Object.prototype are not the schema's.
    expect(says(JSON.parse('{"constructor": 1, "__proto__": {}}'))).toBe('Fields "constructor", "__proto__" cannot be updated');
  });

  it("names the refused keys as the guard's details do: the body's, else its bmi's", () => {
    expect(unknownProfileKeys({ role: 1, bmi: { id: 2 } })).toEqual(['role']);
    expect(unknownProfileKeys({ bmi: { id: 2, height: 180 } })).toEqual(['bmi.id']);
    expect(says({ bmi: { id: 2 } })).toBe(cannotBeUpdated(['bmi.id']));
    expect(unknownProfileKeys({ username: 'tbone' })).toEqual([]);
    expect(unknownProfileKeys('text')).toEqual([]);
  });
});

describe("each key's rule, in the guard's order", () => {
  it('username, then e-mail, then bmi, whatever order they come in', () => {
    expect(says({ bmi: 'x', email: 'nope', username: 'ab' })).toBe(profileMessages.usernameTooShort);
    expect(says({ bmi: 'x', email: 'nope', username: 'tbone' })).toBe(profileMessages.invalidEmail);
    expect(says({ bmi: 'x', email: 'a@example.com' })).toBe(profileMessages.bmiNotAnObject);
    expect(says({ username: 42 })).toBe(profileMessages.usernameRequired);
    expect(says({ username: 'rib eye!' })).toBe(profileMessages.usernameInvalidCharacters);
    expect(says({ email: null })).toBe(profileMessages.invalidEmail);
  });

  it('bmi: its keys, then height and weight together, then the rest', () => {
    expect(says({ bmi: { height: 180, Gender: 'Other' } })).toBe(profileMessages.notPositive);
    expect(says({ bmi: { height: 99, currentWeight: 80, Gender: 'Other' } })).toBe(profileMessages.heightRange);
    expect(says({ bmi: { height: '180', currentWeight: '301' } })).toBe(profileMessages.weightRange);
    expect(says({ bmi: { Gender: 'Other' } })).toBe(profileMessages.gender);
    expect(says({ bmi: { Gender: null } })).toBe(profileMessages.gender);
    expect(says({ bmi: { date_of_birth: '2001-02-30' } })).toBe(profileMessages.dateOfBirth);
    expect(says({ bmi: { date_of_birth: 20010228 } })).toBe(profileMessages.dateOfBirth);
    expect(says({ bmi: { idealBmiWeight: 'heavy' } })).toBe(profileMessages.idealBmiWeight);
    expect(says({ bmi: { idealBmiWeight: 1001 } })).toBe(profileMessages.idealBmiWeight);
  });

  it('the settings and goals', () => {
    expect(says({ diet_preference: 'Vegan' })).toBe(profileMessages.diet);
    expect(says({ goal_reminder: 'hourly' })).toBe(profileMessages.reminder);
    expect(says({ unit_system: 'cubits' })).toBe(profileMessages.unitSystem);
    expect(says({ reminders_enabled: 'yes' })).toBe(profileMessages.remindersEnabled);
    expect(says({ personal_goal_note: 'x'.repeat(2001) })).toBe(profileMessages.note);
    expect(says({ personal_goal_note: 7 })).toBe(profileMessages.note);
    expect(says({ currentPassword: 7 })).toBe(profileMessages.currentPasswordRequired);
    for (const goal of [-1, 29, 301, 'abc', true]) expect(says({ goal_weight: goal })).toBe(profileMessages.goalWeightRange);
    for (const ingredients of ['1', [0], [1.5], ['1'], Array.from({ length: 501 }, (_, i) => i + 1)]) {
      expect(says({ ingredients })).toBe(profileMessages.ingredientsList);
    }
  });
});

describe('what may be saved', () => {
  it('trimmed username and e-mail, the e-mail lower-cased', () => {
    expect(saved({ username: ' tbone ', email: ' T.Bone@Example.COM ' })).toEqual({ username: 'tbone', email: 't.bone@example.com' });
  });

  it('numbers as numbers, unique ingredient ids, null as no goal and no note', () => {
    expect(saved({ goal_weight: '72.5', ingredients: [3, 1, 3], personal_goal_note: null })).toEqual({
      goal_weight: 72.5,
      ingredients: [3, 1],
      personal_goal_note: null,
    });
    expect(saved({ goal_weight: null })).toEqual({ goal_weight: 0 });
  });

  it('the whole bmi component: defaults for what is not sent, height and weight only when sent', () => {
    expect(saved({ bmi: {} })).toEqual({ bmi: { Gender: 'Male', date_of_birth: null, idealBmiWeight: null } });
    expect(saved({ bmi: { height: '180', currentWeight: 80.5, Gender: 'Female', date_of_birth: '', idealBmiWeight: 72.9 } })).toEqual({
      bmi: { Gender: 'Female', date_of_birth: null, idealBmiWeight: '72.9', height: 180, currentWeight: 80.5 },
    });
    expect(saved({ bmi: { date_of_birth: '1990-05-17' } }).bmi).toMatchObject({ date_of_birth: '1990-05-17' });
  });
});
