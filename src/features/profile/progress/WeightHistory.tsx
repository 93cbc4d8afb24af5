import { Suspense, lazy, useId, type ComponentType, type FormEvent } from 'react';
import { useSelector } from '@xstate/react';
import { localToday } from '../../../../machines/weightHistory.machine';
import { FormMessages } from '../../../components/form/FormMessages';
import { ActionButtons } from '../../../components/form/ActionButtons';
import { formValues } from '../../../components/form/formValues';
import { formatWeight, weightUnit, type UnitSystem } from '../../../../machines/rules/units';
import { formatDay } from '../../../../machines/rules/dates';
import type { WeightChartProps } from './WeightChart';
import { useWeightHistory } from './useProgressFlows';

// uPlot comes with this chunk only when the Goals tab shows a chart. Should it fail to load (or the
// browser lack what it needs), the table below still has every entry.
const WeightChart = lazy<ComponentType<WeightChartProps>>(() =>
  import('./WeightChart').then(
    (module) => ({ default: module.WeightChart }),
    () => ({ default: () => null }),
  ),
);

const ENTRY_SAVED = 'Weight entry saved';

type WeightHistoryProps = { unit: UnitSystem; goalKg: number; heightCm: number };

/** Issue 12: the member's weight over time, as a chart and as a table, with entries added and deleted here. */
export function WeightHistory({ unit, goalKg, heightCm }: WeightHistoryProps) {
  const flow = useWeightHistory();
  const loading = useSelector(flow, (snapshot) => snapshot.matches('loading'));
  const failed = useSelector(flow, (snapshot) => snapshot.matches('failure'));
  const busy = useSelector(flow, (snapshot) => snapshot.hasTag('busy'));
  const added = useSelector(flow, (snapshot) => snapshot.hasTag('success'));
  const entries = useSelector(flow, (snapshot) => snapshot.context.entries);
  const error = useSelector(flow, (snapshot) => snapshot.context.error);
  const ids = { date: useId(), weight: useId() };
  const label = weightUnit(unit);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget, ['date', 'weight'] as const);
    flow.send({ type: 'entry.submitted', date: values.date, weight: values.weight, unitSystem: unit });
  };

  if (failed) {
    return (
      <section className="profile-card" aria-label="Weight history">
        <h2>Weight history</h2>
        <FormMessages error={error} />
        <div className="profile-card__actions">
          <button type="button" className="button button--primary" onClick={() => flow.send({ type: 'history.retried' })}>
            Retry
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="profile-card" aria-label="Weight history" aria-busy={busy}>
      <h2>Weight history</h2>
      {loading ? (
        <p>Loading weight history…</p>
      ) : (
        <>
          <FormMessages error={error} notice={added ? ENTRY_SAVED : null} />
          <form className="profile-form weight-entry-form" onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor={ids.date}>Date</label>
              <input id={ids.date} name="date" type="date" max={localToday()} defaultValue={localToday()} />
            </div>
            <div className="field">
              <label htmlFor={ids.weight}>Weight ({label})</label>
              <input id={ids.weight} name="weight" inputMode="decimal" />
            </div>
            <ActionButtons busy={busy} label="Add entry" busyLabel="Saving..." />
          </form>
          {entries.length === 0 ? (
            <p>No entries yet. Every change of your weight is recorded here.</p>
          ) : (
            <>
              <figure className="weight-chart-figure">
                <Suspense fallback={<p>Loading chart…</p>}>
                  <WeightChart entries={entries} goalKg={goalKg} heightCm={heightCm} unit={unit} />
                </Suspense>
                <figcaption>
                  Your weight in {label} over time
                  {goalKg > 0 && ', the dashed line is your goal'}
                  {heightCm > 0 && ', and the shaded bands are the BMI categories for your height'}. The table below has the same data.
                </figcaption>
              </figure>
              <table className="weight-table">
                <caption>Weight entries, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Date</th>
                    <th scope="col">Weight</th>
                    <th scope="col">Action</th>
                  </tr>
                </thead>
                <tbody>
                  {/* The machine keeps them oldest first, as the chart draws them; a history reads newest first. */}
                  {[...entries].reverse().map((entry) => (
                    <tr key={entry.id}>
                      <th scope="row">{formatDay(entry.date)}</th>
                      <td>{formatWeight(entry.weight, unit)}</td>
                      <td>
                        <button
                          type="button"
                          className="button button--small"
                          disabled={busy}
                          aria-label={`Delete the entry of ${formatDay(entry.date)}`}
                          onClick={() => flow.send({ type: 'entry.deleted', id: entry.id })}
                        >
                          Delete
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </>
      )}
    </section>
  );
}
