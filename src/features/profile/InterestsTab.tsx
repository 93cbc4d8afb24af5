import type { User } from '../../../server/src/contract/users';
import { foodInterests } from './dietContent';
import { EditableSection } from './EditableSection';
import { useProfileSection } from './useProfileFlows';

export function InterestsTab({ user }: { user: User }) {
  const section = useProfileSection(String(user.id));
  const chosen = new Set(user.ingredients.map((ingredient) => ingredient.id));
  const chosenNames = foodInterests.filter((interest) => chosen.has(interest.id)).map((interest) => interest.name);
  return (
    <EditableSection
      title="Interests"
      section={section}
      editLabel="Edit Interests"
      view={
        chosenNames.length ? (
          <ul className="chips" aria-label="Your food interests">
            {chosenNames.map((name) => (
              <li key={name} className="chip">
                {name}
              </li>
            ))}
          </ul>
        ) : (
          <p>No food interests chosen yet.</p>
        )
      }
      fields={
        <fieldset className="checkbox-list">
          <legend>Food interests</legend>
          {foodInterests.map((interest) => (
            <label key={interest.id} className="checkbox-list__item">
              <input type="checkbox" name="ingredients" value={interest.id} defaultChecked={chosen.has(interest.id)} />
              {interest.name}
            </label>
          ))}
        </fieldset>
      }
      profile={user}
      readForm={(form) => ({ section: 'interests', fields: { ingredients: new FormData(form).getAll('ingredients').map(String) } })}
    />
  );
}
