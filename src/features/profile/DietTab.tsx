import { useId } from 'react';
import type { User } from '../../../server/src/contract/users';
import { DIET_FIELDS } from '../../../machines/rules/profileForms';
import { formValues } from '../../components/form/formValues';
import { DEFAULT_DIET, diets, type DietName } from './dietContent';
import { EditableSection } from './EditableSection';
import { useProfileSection } from './useProfileFlows';

export function DietTab({ user }: { user: User }) {
  const section = useProfileSection(String(user.id));
  const selectId = useId();
  const current: DietName = user.diet_preference ?? DEFAULT_DIET;
  const diet = diets[current];
  return (
    <EditableSection
      title="Diet"
      section={section}
      editLabel="Edit Diet"
      view={
        <>
          <p className="profile-card__lead">
            Current diet: <strong>{current}</strong>
          </p>
          <p>{diet.description}</p>
          <h3>Benefits</h3>
          <ul>
            {diet.benefits.map((benefit) => (
              <li key={benefit}>{benefit}</li>
            ))}
          </ul>
        </>
      }
      fields={
        <div className="field">
          <label htmlFor={selectId}>Diet Preference</label>
          <select id={selectId} name="diet_preference" defaultValue={current}>
            {Object.keys(diets).map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
      }
      profile={user}
      readForm={(form) => ({ section: 'diet', fields: formValues(form, DIET_FIELDS) })}
    />
  );
}
