import { useId } from 'react';
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { firstRunBmiMachine } from '../../../machines/firstRunBmi.machine';
import { useFlows } from '../../hooks/appContext';
import { useNavigateAction } from '../../hooks/navigation';
import { useFlowActor } from '../../hooks/useFlowActor';
import { useMember } from '../../hooks/useReloadProfile';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';
import { weightUnit } from '../../../machines/rules/units';
import { UnitsSetting } from './progress/SettingControls';
import { memberUnitSystem } from './progress/memberSettings';

/** First run after a social sign-up: the BMI details, saved like the profile's Information. */
export function FirstRunBmiPage() {
  usePageHead({ title: pageTitle('Your BMI'), description: `Set up your ${site.brand} profile: height, weight and BMI.` });
  const user = useMember();
  const navigate = useNavigateAction();
  const flow = useFlowActor((useFlows().firstRunBmi ?? firstRunBmiMachine).provide({ actions: { navigate } }), {
    input: { userId: String(user.id), username: user.username, email: user.email },
  });
  const saving = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const ids = { height: useId(), inches: useId(), weight: useId(), gender: useId(), birth: useId() };
  const unit = memberUnitSystem(user);

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Welcome to Carnivo</h1>
        <p className="auth-card__lead">Tell us a little about you so we can work out your BMI and ideal weight.</p>
        <UnitsSetting userId={String(user.id)} unitSystem={unit} />
        <FormMessages error={error} />
        <form
          noValidate
          aria-busy={saving}
          onSubmit={(event) => {
            event.preventDefault();
            const fields = formValues(event.currentTarget, [
              'height',
              'feet',
              'inches',
              'currentWeight',
              'Gender',
              'date_of_birth',
            ] as const);
            flow.send({ type: 'bmi.submitted', fields: { ...fields, unitSystem: unit } });
          }}
        >
          {unit === 'metric' ? (
            <div className="field">
              <label htmlFor={ids.height}>Height (cm)</label>
              <input id={ids.height} name="height" inputMode="decimal" />
            </div>
          ) : (
            <div className="field field--pair">
              <div className="field">
                <label htmlFor={ids.height}>Height (ft)</label>
                <input id={ids.height} name="feet" inputMode="numeric" />
              </div>
              <div className="field">
                <label htmlFor={ids.inches}>Height (in)</label>
                <input id={ids.inches} name="inches" inputMode="decimal" />
              </div>
            </div>
          )}
          <div className="field">
            <label htmlFor={ids.weight}>Weight ({weightUnit(unit)})</label>
            <input id={ids.weight} name="currentWeight" inputMode="decimal" />
          </div>
          <div className="field">
            <label htmlFor={ids.gender}>Gender</label>
            <select id={ids.gender} name="Gender" defaultValue="Male">
              <option value="Male">Male</option>
              <option value="Female">Female</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.birth}>Date of Birth</label>
            <input id={ids.birth} name="date_of_birth" type="date" />
          </div>
          <button type="submit" className="button button--primary button--block" disabled={saving}>
            {saving ? 'Saving...' : 'Save and continue'}
          </button>
        </form>
        <p className="auth-card__links">
          <Link to="/profile">Skip for now</Link>
        </p>
      </div>
    </section>
  );
}
