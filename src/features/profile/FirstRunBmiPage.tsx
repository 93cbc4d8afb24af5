import { useId } from 'react';
import { Link, getRouteApi, useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { profileSectionMachine } from '../../../machines/profileSection.machine';
import { useFlows } from '../../app/appContext';
import { FormMessages } from '../../components/form/FormMessages';
import { formValues } from '../../components/form/formValues';
import { idealBmiWeight, parseDecimal, type Gender } from '../../lib/bmi';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../app/usePageHead';

const bmiRoute = getRouteApi('/bmi');

/** First run after a social sign-up: the BMI details, saved like the profile's Information. */
export function FirstRunBmiPage() {
  usePageHead({ title: pageTitle('Your BMI'), description: `Set up your ${site.brand} profile: height, weight and BMI.` });
  const user = bmiRoute.useLoaderData();
  const router = useRouter();
  const section = useActorRef(
    (useFlows().profileSection ?? profileSectionMachine).provide({
      actions: { reloadProfile: () => void router.navigate({ to: '/profile' }) },
    }),
    { input: { userId: String(user.id) } },
  );
  const saving = useSelector(section, (snapshot) => snapshot.hasTag('busy'));
  const error = useSelector(section, (snapshot) => snapshot.context.error);
  const ids = { height: useId(), weight: useId(), gender: useId(), birth: useId() };

  return (
    <section className="auth-page">
      <div className="auth-card">
        <h1>Welcome to Carnivo</h1>
        <p className="auth-card__lead">Tell us a little about you so we can work out your BMI and ideal weight.</p>
        <FormMessages error={error} />
        <form
          noValidate
          aria-busy={saving}
          onSubmit={(event) => {
            event.preventDefault();
            const values = formValues(event.currentTarget, ['height', 'currentWeight', 'Gender', 'date_of_birth'] as const);
            const gender: Gender = values.Gender === 'Female' ? 'Female' : 'Male';
            const height = parseDecimal(values.height);
            section.send({ type: 'edit.started' });
            section.send({
              type: 'save.submitted',
              update: {
                section: 'information',
                values: {
                  username: user.username,
                  email: user.email,
                  bmi: {
                    height,
                    currentWeight: parseDecimal(values.currentWeight),
                    Gender: gender,
                    date_of_birth: values.date_of_birth || null,
                    idealBmiWeight: String(idealBmiWeight(height, gender) ?? 0),
                  },
                },
              },
            });
          }}
        >
          <div className="field">
            <label htmlFor={ids.height}>Height (cm)</label>
            <input id={ids.height} name="height" inputMode="decimal" />
          </div>
          <div className="field">
            <label htmlFor={ids.weight}>Weight (kg)</label>
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
