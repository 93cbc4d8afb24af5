// @ts-nocheck
import { useId } from 'react';
import type { User } from '../../../server/src/contract/users';
import { formValues } from '../../components/form/formValues';
import { parseDecimal } from '../../lib/bmi';
import { goalDifference } from '../../lib/goals';
import { EditableSection } from './EditableSection';
import { useProfileSection } from './useProfileFlows';

const DEFAULT_REMINDER = 'daily';

export function GoalsTab({ user }: { user: User }) {
  const section = useProfileSection(String(user.id));
  const ids = { goal: useId(), note: useId(), reminder: useId() };
  const goal = parseDecimal(user.goal_weight);
  const current = parseDecimal(user.bmi?.currentWeight);
  const reminder = user.goal_reminder ?? DEFAULT_REMINDER;
  const difference = goalDifference(goal, current);
  return (
    <EditableSection
      title="Goals"
      section={section}
      editLabel="Edit Goals"
      view={
        <dl className="details">
          <dt>Goal weight</dt>
          <dd>{goal ? `${goal} kg` : 'Not set'}</dd>
          <dt>Current weight</dt>
          <dd>{current ? `${current} kg` : 'Not set'}</dd>
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
            <label htmlFor={ids.goal}>Goal Weight (kg)</label>
            <input id={ids.goal} name="goal_weight" inputMode="decimal" defaultValue={goal || ''} />
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
      toUpdate={(form) => {
        const values = formValues(form, ['goal_weight', 'personal_goal_note', 'goal_reminder'] as const);
        return {
          section: 'goals',
          values: {
            goal_weight: parseDecimal(values.goal_weight),
            personal_goal_note: values.personal_goal_note,
            goal_reminder: values.goal_reminder === 'weekly' ? 'weekly' : 'daily',
          },
        };
      }}
    />
  );
}
