import { Fragment, useId, useState } from 'react';
import { useRouter } from '@tanstack/react-router';
import type { User } from '../../../server/src/contract/users';
import { formValues } from '../../components/form/formValues';
import { PasswordField } from '../../components/form/PasswordField';
import { PASSWORD_SECTION } from '../../components/profileLinks';
import { INFORMATION_FIELDS } from '../../../machines/rules/profileForms';
import { needsCurrentPassword } from '../../../server/src/contract/profileRules';
import { cmToFeetInches, weightInUnit, weightUnit } from '../../../machines/rules/units';
import { UnitsSetting } from './progress/SettingControls';
import { bmiBadgeClassName, informationDetails, memberMeasures } from './informationDetails';
import { DataExportPanel } from './DataExportPanel';
import { EditableSection } from './EditableSection';
import { ProfilePicture } from './ProfilePicture';
import { useProfileSection } from './useProfileFlows';

/**
 * SPEC §2's Change Password button on Information: the password is changed in the Security tab (issue 28:
 * with the passkeys, two-factor and devices), so the button leads there.
 */
function PasswordCard() {
  const router = useRouter();
  const headingId = useId();
  return (
    <section className="profile-card" aria-labelledby={headingId}>
      <h2 id={headingId}>Password</h2>
      <p className="muted">Your password, two-factor authentication and signed-in devices are in the Security tab.</p>
      <button
        type="button"
        className="button"
        onClick={() => void router.navigate({ to: '/profile', search: { tab: 'security' }, hash: PASSWORD_SECTION })}
      >
        Change Password
      </button>
    </section>
  );
}

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
  const ids = { username: useId(), birth: useId(), gender: useId(), height: useId(), inches: useId(), weight: useId(), units: useId() };
  const { unit, gender, height, weight } = memberMeasures(user);

  const view = (
    <dl className="details">
      {informationDetails(user).map(({ label, value, category }) => (
        <Fragment key={label}>
          <dt>{label}</dt>
          <dd>
            {value}
            {category && (
              <>
                {' '}
                <span className={bmiBadgeClassName(category)}>{category.label}</span>
              </>
            )}
          </dd>
        </Fragment>
      ))}
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
        <input id={ids.birth} name="date_of_birth" type="date" defaultValue={user.bmi?.date_of_birth ?? ''} />
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
        view={view}
        fields={fields}
        profile={user}
        readForm={(form) => ({ section: 'information', fields: formValues(form, INFORMATION_FIELDS) })}
      />
      {/* The heading names the card and the choice inside it: one 'Units', not a heading and a legend. */}
      <section className="profile-card" aria-labelledby={ids.units}>
        <h2 id={ids.units}>Units</h2>
        <UnitsSetting userId={String(user.id)} unitSystem={unit} labelledBy={ids.units} />
      </section>
      <PasswordCard />
      <DataExportPanel />
    </>
  );
}
