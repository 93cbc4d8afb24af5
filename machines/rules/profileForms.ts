import { needsCurrentPassword } from '../../server/src/contract/profileRules';
import type { BmiDetailsUpdate, BmiUpdate, ProfileUpdate, User } from '../../server/src/contract/users';
import { idealBmiWeight, parseDecimal } from './bmi';
import { heightFromInput, unitSystemOf, weightFromInput, type UnitSystem } from './units';

/**
 * The profile forms as the member filled them in (every field a string, as typed) and the SPEC §7
 * payloads they become: parsed, converted to kg and cm, with the ideal BMI weight worked out.
 */

/** The BMI fields as typed: the height in cm, or in `feet` and `inches` when imperial; the weight in kg or lb. */
export type BmiForm = { height: string; feet?: string; inches?: string; currentWeight: string; Gender: string; date_of_birth: string };

/** The input names of each section's form. */
export const INFORMATION_FIELDS = [
  'username',
  'email',
  'currentPassword',
  'date_of_birth',
  'Gender',
  'height',
  'feet',
  'inches',
  'currentWeight',
] as const;
export const GOALS_FIELDS = ['goal_weight', 'personal_goal_note', 'goal_reminder'] as const;
export const DIET_FIELDS = ['diet_preference'] as const;

type Typed<TNames extends readonly string[]> = Record<TNames[number], string>;

export type ProfileForm =
  | { section: 'information'; fields: Typed<typeof INFORMATION_FIELDS> }
  | { section: 'goals'; fields: Typed<typeof GOALS_FIELDS> }
  | { section: 'diet'; fields: Typed<typeof DIET_FIELDS> }
  /** The ids of the ticked interests. */
  | { section: 'interests'; fields: { ingredients: string[] } };

/** The saved profile the form was filled from: its unit, and the values a form left unchanged keeps exactly. */
export type SavedProfile = Pick<User, 'email' | 'provider' | 'bmi' | 'goal_weight' | 'unit_system'>;

type SavedMeasures = { heightCm: number; weightKg: number };

/** The bmi fields besides height and weight, any gender but Female read as Male. */
function bmiDetails(fields: BmiForm): BmiDetailsUpdate {
  return { Gender: fields.Gender === 'Female' ? 'Female' : 'Male', date_of_birth: fields.date_of_birth || null };
}

/**
 * The bmi component from its typed fields. With the saved height and weight, values typed back
 * unchanged in feet or pounds stay exactly as saved.
 */
export function bmiFromForm(fields: BmiForm, unit: UnitSystem, saved: SavedMeasures = { heightCm: 0, weightKg: 0 }): BmiUpdate {
  const details = bmiDetails(fields);
  const height = heightFromInput({ cm: fields.height, feet: fields.feet, inches: fields.inches }, unit, saved.heightCm);
  return {
    height,
    currentWeight: weightFromInput(fields.currentWeight, unit, saved.weightKg),
    ...details,
    idealBmiWeight: String(idealBmiWeight(height, details.Gender) ?? 0),
  };
}

/**
 * Issue 21: height and weight left empty while none is saved are not being changed, so they are not
 * sent and their rules don't hold back the other fields. Typed, or cleared once saved, they are checked.
 */
function leavesMeasuresUnset(fields: BmiForm, saved: SavedMeasures): boolean {
  const typed = [fields.height, fields.feet, fields.inches, fields.currentWeight].some((value) => value?.trim());
  return !typed && !(saved.heightCm > 0) && !(saved.weightKg > 0);
}

/** A section's form as its PUT /api/users/{userId} update, in the saved profile's unit. */
export function toProfileUpdate(form: ProfileForm, saved: SavedProfile): ProfileUpdate {
  const unit = unitSystemOf(saved.unit_system);
  switch (form.section) {
    case 'information': {
      const { fields } = form;
      const measures = { heightCm: parseDecimal(saved.bmi?.height), weightKg: parseDecimal(saved.bmi?.currentWeight) };
      return {
        section: 'information',
        values: {
          username: fields.username.trim(),
          email: fields.email.trim(),
          // The password travels only with a changed e-mail, the one case the server asks for it.
          ...(needsCurrentPassword(saved, fields.email) && { currentPassword: fields.currentPassword }),
          bmi: leavesMeasuresUnset(fields, measures) ? bmiDetails(fields) : bmiFromForm(fields, unit, measures),
        },
      };
    }
    case 'goals':
      return {
        section: 'goals',
        values: {
          goal_weight: weightFromInput(form.fields.goal_weight, unit, parseDecimal(saved.goal_weight)),
          personal_goal_note: form.fields.personal_goal_note,
          goal_reminder: form.fields.goal_reminder === 'weekly' ? 'weekly' : 'daily',
        },
      };
    case 'diet':
      return { section: 'diet', values: { diet_preference: form.fields.diet_preference === 'Ketovore' ? 'Ketovore' : 'Carnivore' } };
    case 'interests':
      return { section: 'interests', values: { ingredients: form.fields.ingredients.map(Number) } };
  }
}
