import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { fromPromise } from 'xstate';
import { profileSectionMachine } from '../../machines/profileSection.machine';
import { formatDay } from '../../machines/rules/dates';
import { SESSION_KEYS } from '../../machines/services/session';
import type { ProfileUpdate } from '../../server/src/contract/users';
import { deferredCalls } from '../support/deferred';
import { renderProfile, restoreProfileHarness } from '../support/profileHarness';
import { settle } from '../support/settle';

function withSaves() {
  const saves = deferredCalls<{ userId: string; update: ProfileUpdate }, string | null>();
  const profileSection = profileSectionMachine.provide({
    actors: { updateProfile: fromPromise<string | null, { userId: string; update: ProfileUpdate }>(({ input }) => saves.handler(input)) },
  });
  return { saves, profileSection };
}

describe('profile page', () => {
  afterEach(restoreProfileHarness);

  it("lists the spec's seven tabs and Security, and shows the information with BMI and its category", async () => {
    renderProfile(
      'information',
      {},
      { bmi: { id: 1, currentWeight: 95, height: 180, Gender: 'Male', date_of_birth: '1980-05-01', idealBmiWeight: '72.9' } },
    );
    await settle(() => screen.getByRole('navigation', { name: 'Profile sections' }));
    const tabs = within(screen.getByRole('navigation', { name: 'Profile sections' }))
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(tabs).toEqual(['Information', 'Diet', 'Interests', 'Goals', 'FAQs', 'Support', 'Subscriptions', 'Security']);
    const info = screen.getByRole('region', { name: 'Information' });
    expect(within(info).getByText('72.9 kg')).toBeTruthy();
    expect(within(info).getByText('Overweight').className).toContain('bmi-badge--yellow');
    expect(within(info).getByText('29.3', { exact: false })).toBeTruthy();
    // The date of birth in the member area's one date format.
    expect(within(info).getByText(formatDay('1980-05-01'))).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Change Password' })).toBeTruthy();
    expect(within(screen.getByRole('navigation', { name: 'Profile quick links' })).getAllByRole('link')).toHaveLength(4);
  });

  it("Information's Change Password (SPEC §2) opens the Security tab, where the password form and 'Log out of all devices' are (issue 28)", async () => {
    const page = renderProfile('information', {});
    await settle(() => screen.getByRole('region', { name: 'Password' }));
    // Neither form is on Information any more.
    expect(screen.queryByLabelText('Current Password', { selector: 'input' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Log out of all devices' })).toBeNull();
    await page.user.click(within(screen.getByRole('region', { name: 'Password' })).getByRole('button', { name: 'Change Password' }));
    await settle(() => screen.getByRole('region', { name: 'Security' }), 20_000);
    expect(page.router.state.location.search).toEqual({ tab: 'security' });
    expect(page.router.state.location.hash).toBe('password');
    const password = screen.getByRole('region', { name: 'Password' });
    expect(password.id).toBe('password');
    expect(within(password).getByRole('button', { name: 'Change Password' }).getAttribute('aria-expanded')).toBe('false');
    const devices = screen.getByRole('group', { name: 'Signed-in devices' });
    expect(within(devices).getByRole('button', { name: 'Log out of all devices' })).toBeTruthy();
  });

  it('gives each Information card one heading naming it, and says Units once (issue 21)', async () => {
    renderProfile('information', {});
    await settle(() => screen.getByRole('region', { name: 'Your data' }));
    const cards = ['Information', 'Units', 'Password', 'Your data'];
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(cards);
    for (const name of cards) {
      expect(
        within(screen.getByRole('region', { name }))
          .getAllByRole('heading')
          .map((heading) => heading.textContent),
      ).toEqual([name]);
    }
    const units = within(screen.getByRole('region', { name: 'Units' }));
    expect(units.getAllByText('Units')).toHaveLength(1);
    // The choice keeps its name: the card's heading.
    expect(units.getByRole('group', { name: 'Units' }).contains(units.getByRole('radio', { name: /^Metric/ }))).toBe(true);
  });

  it('Diet: shows the current diet and saves diet_preference', async () => {
    const { saves, profileSection } = withSaves();
    const page = renderProfile('diet', { profileSection }, { diet_preference: null });
    await settle(() => screen.getByRole('region', { name: 'Diet' }));
    const card = screen.getByRole('region', { name: 'Diet' });
    expect(within(card).getByText('Carnivore')).toBeTruthy();
    await page.user.click(within(card).getByRole('button', { name: 'Edit Diet' }));
    await page.user.selectOptions(within(card).getByLabelText('Diet Preference'), 'Ketovore');
    await page.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(saves.last().input).toEqual({ userId: '7', update: { section: 'diet', values: { diet_preference: 'Ketovore' } } });
  });

  it('a save answered with a waiting new address says the link was sent and keeps the session; a plain one says saved', async () => {
    const { saves, profileSection } = withSaves();
    const page = renderProfile('diet', { profileSection });
    await settle(() => screen.getByRole('region', { name: 'Diet' }));
    const card = () => screen.getByRole('region', { name: 'Diet' });
    const save = async (answer: string | null, notice: string) => {
      await page.user.click(within(card()).getByRole('button', { name: 'Edit Diet' }));
      await page.user.click(within(card()).getByRole('button', { name: 'Save' }));
      await act(async () => saves.last().settle.resolve(answer));
      await settle(() => within(card()).getByText(notice));
    };
    await save(null, 'Profile updated successfully!');
    await save('new@example.com', 'We sent a confirmation link to new@example.com. Your email changes when you open it (within 24 hours).');
    // Asking for a new address ends no session.
    expect(localStorage.getItem(SESSION_KEYS.jwt)).toBe('member-token');
    expect(screen.getByRole('navigation', { name: 'Profile sections' })).toBeTruthy();
  });

  it('Interests: offers the six fixed interests and saves their ids', async () => {
    const { saves, profileSection } = withSaves();
    const page = renderProfile(
      'interests',
      { profileSection },
      { ingredients: [{ id: 3, documentId: 'c', ingredient_name: 'Cheese', slug: 'cheese' }] },
    );
    await settle(() => screen.getByRole('region', { name: 'Interests' }));
    const card = screen.getByRole('region', { name: 'Interests' });
    expect(within(card).getByText('Cheese')).toBeTruthy();
    await page.user.click(within(card).getByRole('button', { name: 'Edit Interests' }));
    const boxes = within(card).getAllByRole('checkbox') as HTMLInputElement[];
    expect(boxes.map((box) => [box.value, box.parentElement?.textContent, box.checked])).toEqual([
      ['1', 'Eggs', false],
      ['2', 'Honey', false],
      ['3', 'Cheese', true],
      ['4', 'Yogurt', false],
      ['5', 'Butter', false],
      ['6', 'Milk', false],
    ]);
    await page.user.click(within(card).getByRole('checkbox', { name: 'Eggs' }));
    await page.user.click(within(card).getByRole('checkbox', { name: 'Butter' }));
    await page.user.click(within(card).getByRole('button', { name: 'Save' }));
    expect(saves.last().input.update).toEqual({ section: 'interests', values: { ingredients: [1, 3, 5] } });
  });

  it('Goals: shows the difference to lose', async () => {
    renderProfile(
      'goals',
      {},
      { goal_weight: 75, bmi: { id: 1, currentWeight: 82.5, height: 180, Gender: 'Male', date_of_birth: null, idealBmiWeight: '72.9' } },
    );
    await settle(() => screen.getByRole('region', { name: 'Goals' }));
    expect(within(screen.getByRole('region', { name: 'Goals' })).getByText('7.5 kg to lose')).toBeTruthy();
  });

  it('FAQs only shows its alert', async () => {
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const page = renderProfile('faqs', {});
    await settle(() => screen.getByRole('button', { name: 'View FAQs' }));
    await page.user.click(screen.getByRole('button', { name: 'View FAQs' }));
    expect(alert).toHaveBeenCalledWith('FAQs coming soon!');
  });

  it('ignores an unknown tab and shows Information', async () => {
    renderProfile('nonsense', {});
    await settle(() => screen.getByRole('region', { name: 'Information' }));
  });
});
