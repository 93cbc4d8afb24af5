import type { FormEvent, ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { profileSectionMachine } from '../../../machines/profileSection.machine';
import type { ProfileForm, SavedProfile } from '../../../machines/rules/profileForms';
import { FormMessages } from '../../components/form/FormMessages';
import { ActionButtons } from '../../components/form/ActionButtons';

export type SectionActor = ActorRefFrom<typeof profileSectionMachine>;

type EditableSectionProps = {
  title: string;
  section: SectionActor;
  /** What the saved values look like. */
  view: ReactNode;
  /** The form's fields, with the saved values as defaults. */
  fields: ReactNode;
  /** Reads the submitted form's fields as typed. */
  readForm: (form: HTMLFormElement) => ProfileForm;
  /** The saved profile the fields were filled from. */
  profile: SavedProfile;
  editLabel?: string;
};

/** A profile section that is either viewed or edited (SPEC §4 Profile sections). */
export function EditableSection({ title, section, view, fields, readForm, profile, editLabel = 'Edit' }: EditableSectionProps) {
  const editing = useSelector(section, (snapshot) => snapshot.matches('editing'));
  const saving = useSelector(section, (snapshot) => snapshot.hasTag('busy'));
  const saved = useSelector(section, (snapshot) => snapshot.hasTag('success'));
  const error = useSelector(section, (snapshot) => snapshot.context.error);
  const notice = useSelector(section, (snapshot) => snapshot.context.notice);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    section.send({ type: 'save.submitted', form: readForm(event.currentTarget), profile });
  };

  return (
    <section className="profile-card" aria-label={title}>
      <header className="profile-card__header">
        <h2>{title}</h2>
      </header>
      <FormMessages error={editing ? error : null} notice={saved ? notice : null} />
      {editing ? (
        <form className="profile-form" onSubmit={submit} noValidate aria-busy={saving}>
          {fields}
          <ActionButtons busy={saving} label="Save" busyLabel="Saving..." onCancel={() => section.send({ type: 'edit.cancelled' })} />
        </form>
      ) : (
        <>
          {view}
          <div className="profile-card__actions">
            <button type="button" className="button button--primary" onClick={() => section.send({ type: 'edit.started' })}>
              {editLabel}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
