import { useId } from 'react';
import { useSelector } from '@xstate/react';
import { PROFILE_UPDATED_MESSAGE } from '../../../../machines/profileSection.machine';
import { FormMessages } from '../../../components/form/FormMessages';
import type { UnitSystem } from '../../../../machines/rules/units';
import { useProfileSetting } from './useProgressFlows';

type SettingActor = ReturnType<typeof useProfileSetting>;

function useSettingStatus(flow: SettingActor) {
  return {
    busy: useSelector(flow, (snapshot) => snapshot.hasTag('busy')),
    saved: useSelector(flow, (snapshot) => snapshot.hasTag('success')),
    error: useSelector(flow, (snapshot) => snapshot.context.error),
  };
}

type UnitsSettingProps = {
  userId: string;
  unitSystem: UnitSystem;
  /** The id of the heading that names the choice (the Units card's); without one the group has its own legend. */
  labelledBy?: string;
};

/** Metric or imperial, saved as soon as it is chosen (issue 12). */
export function UnitsSetting({ userId, unitSystem, labelledBy }: UnitsSettingProps) {
  const flow = useProfileSetting(userId);
  const { busy, saved, error } = useSettingStatus(flow);
  const shown = useSelector(flow, (snapshot) => {
    const pending = snapshot.context.pending;
    return pending && 'unit_system' in pending ? pending.unit_system : unitSystem;
  });
  const name = useId();
  const choose = (unit: UnitSystem) => flow.send({ type: 'setting.changed', update: { unit_system: unit } });
  return (
    <fieldset className="setting" aria-busy={busy} disabled={busy} aria-labelledby={labelledBy}>
      {!labelledBy && <legend>Units</legend>}
      <label className="setting__option">
        <input type="radio" name={name} value="metric" checked={shown === 'metric'} onChange={() => choose('metric')} /> Metric (kg, cm)
      </label>
      <label className="setting__option">
        <input type="radio" name={name} value="imperial" checked={shown === 'imperial'} onChange={() => choose('imperial')} /> Imperial (lb,
        ft, in)
      </label>
      <FormMessages error={error} notice={saved ? PROFILE_UPDATED_MESSAGE : null} />
    </fieldset>
  );
}

/** Goal reminder e-mails on or off, saved as soon as it is switched (issue 12). */
export function RemindersSetting({ userId, enabled }: { userId: string; enabled: boolean }) {
  const flow = useProfileSetting(userId);
  const { busy, saved, error } = useSettingStatus(flow);
  const shown = useSelector(flow, (snapshot) => {
    const pending = snapshot.context.pending;
    return pending && 'reminders_enabled' in pending ? pending.reminders_enabled : enabled;
  });
  const id = useId();
  return (
    <div className="setting" aria-busy={busy}>
      <div className="setting__option">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={shown}
          disabled={busy}
          onChange={(event) => flow.send({ type: 'setting.changed', update: { reminders_enabled: event.currentTarget.checked } })}
        />{' '}
        <label htmlFor={id}>Goal reminder e-mails</label>
      </div>
      <FormMessages error={error} notice={saved ? PROFILE_UPDATED_MESSAGE : null} />
    </div>
  );
}
