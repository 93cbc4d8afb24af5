import { useId } from 'react';
import type { User } from '../../../server/src/contract/users';
import { formValues } from '../../components/form/formValues';
import { parseDecimal } from '../../../machines/rules/bmi';
import { GOALS_FIELDS } from '../../../machines/rules/profileForms';
import { formatWeight, goalDifferenceIn, weightInUnit, weightUnit } from '../../../machines/rules/units';
import { EditableSection } from './EditableSection';
import { RemindersSetting } from './progress/SettingControls';
import { memberRemindersEnabled, memberUnitSystem } from './progress/memberSettings';
import { WeightHistory } from './progress/WeightHistory';
import { useProfileSection } from './useProfileFlows';

const DEFAULT_REMINDER = 'daily';

export function GoalsTab({ user }: { user: User }) {
  const section = useProfileSection(String(user.id));
  const ids = { goal: useId(), note: useId(), reminder: useId() };
  const unit = memberUnitSystem(user);
  const goal = parseDecimal(user.goal_weight);
  const current = parseDecimal(user.bmi?.currentWeight);
  const reminder = user.goal_reminder ?? DEFAULT_REMINDER;
  const difference = goalDifferenceIn(goal, current, unit);
  return (
    <>
      <EditableSection
        title="Goals"
        section={section}
        editLabel="Edit Goals"
        view={
          <dl className="details">
            <dt>Goal weight</dt>
            <dd>{formatWeight(goal, unit)}</dd>
            <dt>Current weight</dt>
            <dd>{formatWeight(current, unit)}</dd>
            {difference && (
              <>
                <dt>Difference</dt>
                <dd>{difference}</dd>
              </>
            )}
            <dt>Personal note</dt>
            <dd>{user.personal_goal_note || 'No note yet'}</dd>
            <dt>Reminder frequency</dt>
            <dd>{reminder === 'weekly' ? 'Weekly' : 'Daily'}</dd>
          </dl>
        }
        fields={
          <>
            <div className="field">
              <label htmlFor={ids.goal}>Goal Weight ({weightUnit(unit)})</label>
              <input id={ids.goal} name="goal_weight" inputMode="decimal" defaultValue={goal ? weightInUnit(goal, unit) : ''} />
            </div>
            <div className="field">
              <label htmlFor={ids.note}>Personal Note</label>
              <textarea id={ids.note} name="personal_goal_note" rows={3} defaultValue={user.personal_goal_note ?? ''} />
            </div>
            <div className="field">
              <label htmlFor={ids.reminder}>Reminder Frequency</label>
              <select id={ids.reminder} name="goal_reminder" defaultValue={reminder}>
                <option value="daily">Daily</option>
                <option value="weekly">Weekly</option>
              </select>
            </div>
          </>
        }
        profile={user}
        readForm={(form) => ({ section: 'goals', fields: formValues(form, GOALS_FIELDS) })}
      />
      <section className="profile-card" aria-label="Reminders">
        <h2>Reminders</h2>
        <RemindersSetting userId={String(user.id)} enabled={memberRemindersEnabled(user)} />
      </section>
      <WeightHistory unit={unit} goalKg={goal} heightCm={parseDecimal(user.bmi?.height)} />
    </>
  );
}
