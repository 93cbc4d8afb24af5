import { describe, expect, it } from 'vitest';
import { bmiFromForm, toProfileUpdate, type ProfileForm, type SavedProfile } from '../../machines/rules/profileForms';

const profile: SavedProfile = {
  email: 'eater@example.com',
  provider: 'local',
  bmi: { id: 1, currentWeight: 80, height: 180, Gender: 'Male', date_of_birth: '1985-01-02', idealBmiWeight: '72.9' },
  goal_weight: 75,
  unit_system: 'metric',
};
const imperial: SavedProfile = { ...profile, unit_system: 'imperial' };

const typedInformation = {
  username: 'meateater',
  email: 'eater@example.com',
  currentPassword: '',
  date_of_birth: '1985-01-02',
  Gender: 'Male',
  height: '180',
  feet: '',
  inches: '',
  currentWeight: '80',
};
const information = (fields: Partial<typeof typedInformation>): ProfileForm => ({
  section: 'information',
  fields: { ...typedInformation, ...fields },
});
const goals = (fields: Partial<{ goal_weight: string; personal_goal_note: string; goal_reminder: string }>): ProfileForm => ({
  section: 'goals',
  fields: { goal_weight: '70', personal_goal_note: 'Fit into my old jeans', goal_reminder: 'weekly', ...fields },
});

describe('profile forms (SPEC §5 and §7: the typed fields of each section as its PUT /api/users/{userId} update)', () => {
  describe('bmiFromForm', () => {
    it('parses the height and weight, reads any gender but Female as Male, no birth date as null, and works out the ideal weight', () => {
      const typed = { height: '170', currentWeight: '80,5', Gender: 'Female', date_of_birth: '' };
      expect(bmiFromForm(typed, 'metric')).toEqual({
        height: 170,
        currentWeight: 80.5,
        Gender: 'Female',
        date_of_birth: null,
        idealBmiWeight: '62.1',
      });
      expect(bmiFromForm({ ...typed, Gender: 'other', date_of_birth: '1990-04-01' }, 'metric')).toEqual({
        height: 170,
        currentWeight: 80.5,
        Gender: 'Male',
        date_of_birth: '1990-04-01',
        idealBmiWeight: '65',
      });
      expect(bmiFromForm({ ...typed, height: 'tall' }, 'metric').idealBmiWeight).toBe('0');
    });

    it('reads feet plus inches and pounds when imperial, and keeps the saved values that are shown unchanged', () => {
      const typed = { height: '999', feet: '5', inches: '10.9', currentWeight: '176.4', Gender: 'Male', date_of_birth: '' };
      const converted = bmiFromForm(typed, 'imperial');
      expect(converted.height).toBeCloseTo(180.086, 10);
      expect(converted.currentWeight).toBeCloseTo(80.0137, 4);
      expect(bmiFromForm(typed, 'imperial', { heightCm: 180, weightKg: 80 })).toMatchObject({
        height: 180,
        currentWeight: 80,
        idealBmiWeight: '72.9',
      });
    });
  });

  describe('toProfileUpdate', () => {
    it('Information: trimmed username and e-mail, the bmi component, and no password for the saved address', () => {
      expect(
        toProfileUpdate(information({ username: ' ribeye ', email: ' EATER@example.com ', currentPassword: 'typed anyway' }), profile),
      ).toEqual({
        section: 'information',
        values: {
          username: 'ribeye',
          email: 'EATER@example.com',
          bmi: { height: 180, currentWeight: 80, Gender: 'Male', date_of_birth: '1985-01-02', idealBmiWeight: '72.9' },
        },
      });
    });

    it('Information: the current password goes with a new e-mail, even empty, unless the account signs in with Google, Apple or Facebook', () => {
      const newAddress = information({ email: 'new@example.com', currentPassword: 'secret123' });
      expect(toProfileUpdate(newAddress, profile).values).toMatchObject({ email: 'new@example.com', currentPassword: 'secret123' });
      expect(toProfileUpdate(information({ email: 'new@example.com' }), profile).values).toMatchObject({ currentPassword: '' });
      expect(toProfileUpdate(newAddress, { ...profile, provider: 'google' }).values).not.toHaveProperty('currentPassword');
    });

    it('Information: sends no height and weight while neither is typed nor saved, so the rest saves without them (issue 21)', () => {
      const newMember: SavedProfile = { ...profile, bmi: null };
      const sentBmi = (form: ProfileForm, saved: SavedProfile) => (toProfileUpdate(form, saved).values as { bmi?: object }).bmi;
      const untouched = { height: '', currentWeight: '', date_of_birth: '', Gender: 'Female' };
      expect(toProfileUpdate(information({ ...untouched, email: 'new@example.com', currentPassword: 'secret123' }), newMember)).toEqual({
        section: 'information',
        values: {
          username: 'meateater',
          email: 'new@example.com',
          currentPassword: 'secret123',
          bmi: { Gender: 'Female', date_of_birth: null },
        },
      });
      const noMeasures = { ...profile, bmi: { ...profile.bmi!, height: null, currentWeight: null } };
      expect(sentBmi(information(untouched), noMeasures)).toEqual({ Gender: 'Female', date_of_birth: null });
      expect(sentBmi(information({ ...untouched, feet: ' ', inches: '' }), { ...newMember, unit_system: 'imperial' })).not.toHaveProperty(
        'height',
      );
      // Typed (even one of them, even in feet or inches), or cleared once saved: both are sent, for the rules to check.
      for (const [typed, saved] of [
        [{ height: '180' }, newMember],
        [{ currentWeight: '0' }, newMember],
        [{ inches: '3' }, { ...newMember, unit_system: 'imperial' as const }],
        [{ feet: '5' }, { ...newMember, unit_system: 'imperial' as const }],
        [{}, profile],
        [{}, { ...profile, bmi: { ...profile.bmi!, height: null } }],
        [{}, { ...profile, bmi: { ...profile.bmi!, currentWeight: null } }],
      ] as const) {
        expect(sentBmi(information({ ...untouched, ...typed }), saved)).toHaveProperty('height');
      }
    });

    it("Information: in the profile's unit, keeping the saved height and weight shown unchanged", () => {
      const unchanged = toProfileUpdate(information({ height: '', feet: '5', inches: '10.9', currentWeight: '176.4' }), imperial);
      expect(unchanged.values).toMatchObject({ bmi: { height: 180, currentWeight: 80 } });
      const changed = toProfileUpdate(information({ feet: '6', inches: '0', currentWeight: '180' }), imperial);
      expect(changed.values).toMatchObject({ bmi: { height: 182.88, currentWeight: 180 * 0.45359237 } });
      expect(toProfileUpdate(information({ feet: '6', inches: '0' }), { ...profile, unit_system: null }).values).toMatchObject({
        bmi: { height: 180 },
      });
    });

    it('Goals: the goal weight in kg (0 for none), the note as typed, weekly or else daily reminders', () => {
      expect(toProfileUpdate(goals({}), profile)).toEqual({
        section: 'goals',
        values: { goal_weight: 70, personal_goal_note: 'Fit into my old jeans', goal_reminder: 'weekly' },
      });
      expect(toProfileUpdate(goals({ goal_weight: '', goal_reminder: 'monthly' }), profile).values).toMatchObject({
        goal_weight: 0,
        goal_reminder: 'daily',
      });
      expect(toProfileUpdate(goals({ goal_weight: '154' }), imperial).values).toMatchObject({ goal_weight: 154 * 0.45359237 });
      // 75 kg shows as 165.3 lb: saved untouched, it stays 75.
      expect(toProfileUpdate(goals({ goal_weight: '165.3' }), imperial).values).toMatchObject({ goal_weight: 75 });
    });

    it('Diet: Ketovore, or else Carnivore', () => {
      expect(toProfileUpdate({ section: 'diet', fields: { diet_preference: 'Ketovore' } }, profile)).toEqual({
        section: 'diet',
        values: { diet_preference: 'Ketovore' },
      });
      expect(toProfileUpdate({ section: 'diet', fields: { diet_preference: 'Vegan' } }, profile).values).toEqual({
        diet_preference: 'Carnivore',
      });
    });

    it('Interests: the ticked ids as numbers', () => {
      expect(toProfileUpdate({ section: 'interests', fields: { ingredients: ['3', '5'] } }, profile)).toEqual({
        section: 'interests',
        values: { ingredients: [3, 5] },
      });
    });
  });
});
