import { useId, useState } from 'react';
import type { User } from '../../../server/src/contract/users';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { bmiCategory, bodyMassIndex, idealBmiWeight, parseDecimal, type Gender } from '../../lib/bmi';
import { needsCurrentPassword } from '../../../server/src/contract/profileRules';
import { cmToFeetInches, formatHeight, formatWeight, heightFromInput, weightFromInput, weightInUnit, weightUnit } from '../../lib/units';
import { UnitsSetting } from './progress/SettingControls';
import { memberUnitSystem } from './progress/memberSettings';
import { DataExportPanel } from './DataExportPanel';
import { EditableSection } from './EditableSection';
import { PasswordChangePanel } from './PasswordChangePanel';
import { ProfilePicture } from './ProfilePicture';
import { useProfileSection } from './useProfileFlows';

const DEFAULT_GENDER: Gender = 'Male';

/**
 * The e-mail input, plus the current password the server asks for when the address changes.
 * It lives only while the form is open, so the password is gone after Cancel or Save.
 */
function EmailFields({ user }: { user: User }) {
  const emailId = useId();
  const [typedEmail, setTypedEmail] = useState(user.email);
  return (
    <>
      <div className="field">
        <label htmlFor={emailId}>Email</label>
        <input
          id={emailId}
          name="email"
          type="email"
          defaultValue={user.email}
          autoComplete="email"
          onChange={(event) => setTypedEmail(event.currentTarget.value)}
        />
      </div>
      {needsCurrentPassword(user, typedEmail) && (
        <PasswordField label="Current password" name="currentPassword" autoComplete="current-password" />
      )}
    </>
  );
}

export function InformationTab({ user }: { user: User }) {
  const section = useProfileSection(String(user.id));
  const ids = { username: useId(), birth: useId(), gender: useId(), height: useId(), inches: useId(), weight: useId() };
  const unit = memberUnitSystem(user);
  const bmi = user.bmi;
  const gender = bmi?.Gender ?? DEFAULT_GENDER;
  const height = parseDecimal(bmi?.height);
  const weight = parseDecimal(bmi?.currentWeight);
  const currentBmi = bodyMassIndex(weight, height);
  const category = currentBmi === null ? null : bmiCategory(currentBmi);
  const idealWeight = bmi?.idealBmiWeight ? parseDecimal(bmi.idealBmiWeight) : idealBmiWeight(height, gender);

  const view = (
    <dl className="details">
      <dt>Username</dt>
      <dd>{user.username}</dd>
      <dt>Email</dt>
      <dd>{user.email}</dd>
      <dt>Date of Birth</dt>
      <dd>{bmi?.date_of_birth ? new Date(`${bmi.date_of_birth}T00:00:00`).toLocaleDateString() : 'Not set'}</dd>
      <dt>Gender</dt>
      <dd>{gender}</dd>
      <dt>Height</dt>
      <dd>{formatHeight(height, unit)}</dd>
      <dt>Weight</dt>
      <dd>{formatWeight(weight, unit)}</dd>
      <dt>Ideal BMI Weight</dt>
      <dd>{formatWeight(idealWeight, unit)}</dd>
      <dt>Current BMI</dt>
      <dd>
        {currentBmi === null || !category ? (
          'Add your height and weight'
        ) : (
          <>
            {currentBmi}{' '}
            <span className={`bmi-badge bmi-badge--${category.colour}`}>{category.label}</span>
          </>
        )}
      </dd>
    </dl>
  );

  const fields = (
    <>
      <div className="field">
        <label htmlFor={ids.username}>Username</label>
        <input id={ids.username} name="username" defaultValue={user.username} autoComplete="username" />
      </div>
      <EmailFields user={user} />
      <div className="field">
        <label htmlFor={ids.birth}>Date of Birth</label>
        <input id={ids.birth} name="date_of_birth" type="date" defaultValue={bmi?.date_of_birth ?? ''} />
      </div>
      <div className="field">
        <label htmlFor={ids.gender}>Gender</label>
        <select id={ids.gender} name="Gender" defaultValue={gender}>
          <option value="Male">Male</option>
          <option value="Female">Female</option>
        </select>
      </div>
      {unit === 'metric' ? (
        <div className="field">
          <label htmlFor={ids.height}>Height (cm)</label>
          <input id={ids.height} name="height" inputMode="decimal" defaultValue={height || ''} />
        </div>
      ) : (
        <div className="field field--pair">
          <div className="field">
            <label htmlFor={ids.height}>Height (ft)</label>
            <input id={ids.height} name="feet" inputMode="numeric" defaultValue={height ? cmToFeetInches(height).feet : ''} />
          </div>
          <div className="field">
            <label htmlFor={ids.inches}>Height (in)</label>
            <input id={ids.inches} name="inches" inputMode="decimal" defaultValue={height ? cmToFeetInches(height).inches : ''} />
          </div>
        </div>
      )}
      <div className="field">
        <label htmlFor={ids.weight}>Weight ({weightUnit(unit)})</label>
        <input id={ids.weight} name="currentWeight" inputMode="decimal" defaultValue={weight ? weightInUnit(weight, unit) : ''} />
      </div>
    </>
  );

  return (
    <>
      <ProfilePicture user={user} />
      <EditableSection
        title="Information"
        section={section}
        editLabel="Edit Profile"
        unitSystem={unit}
        view={view}
        fields={fields}
        toUpdate={(form) => {
          const values = formValues(form, ['username', 'email', 'currentPassword', 'date_of_birth', 'Gender', 'height', 'feet', 'inches', 'currentWeight'] as const);
          const newGender: Gender = values.Gender === 'Female' ? 'Female' : 'Male';
          const newHeight = heightFromInput({ cm: values.height, feet: values.feet, inches: values.inches }, unit, height);
          return {
            section: 'information',
            values: {
              username: values.username.trim(),
              email: values.email.trim(),
              // The password travels only with a changed e-mail, the one case the server asks for it.
              ...(needsCurrentPassword(user, values.email) && { currentPassword: values.currentPassword }),
              bmi: {
                currentWeight: weightFromInput(values.currentWeight, unit, weight),
                height: newHeight,
                Gender: newGender,
                date_of_birth: values.date_of_birth || null,
                idealBmiWeight: String(idealBmiWeight(newHeight, newGender) ?? 0),
              },
            },
          };
        }}
      />
      <section className="profile-card" aria-label="Units">
        <h2>Units</h2>
        <UnitsSetting userId={String(user.id)} unitSystem={unit} routeId="/profile" />
      </section>
      <PasswordChangePanel />
      <DataExportPanel />
    </>
  );
}
