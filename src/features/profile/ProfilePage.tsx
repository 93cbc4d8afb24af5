import { useState, type ReactNode } from 'react';
import { Link, getRouteApi } from '@tanstack/react-router';
import type { User } from '../../../server/src/contract/users';
import { DietTab } from './DietTab';
import { FaqsTab } from './FaqsTab';
import { GoalsTab } from './GoalsTab';
import { InformationTab } from './InformationTab';
import { InterestsTab } from './InterestsTab';
import { bottomBarTabs, profileTabs, type ProfileTabId } from './profileTabs';
import { SupportTab } from './support/SupportTab';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';
import { useMember } from '../../hooks/useReloadProfile';

const profileRoute = getRouteApi('/_member/profile');

type AppPanels = { subscriptionsPanel: ReactNode; securityPanel: ReactNode };

function TabPanel({ tab, user, subscriptionsPanel, securityPanel }: { tab: ProfileTabId; user: User } & AppPanels) {
  switch (tab) {
    case 'information':
      return <InformationTab user={user} />;
    case 'diet':
      return <DietTab user={user} />;
    case 'interests':
      return <InterestsTab user={user} />;
    case 'goals':
      return <GoalsTab user={user} />;
    case 'faqs':
      return <FaqsTab />;
    case 'support':
      return <SupportTab />;
    case 'subscriptions':
      return subscriptionsPanel;
    case 'security':
      return securityPanel;
  }
}

function TabLinks({ active, ids, onNavigate }: { active: ProfileTabId; ids: readonly ProfileTabId[]; onNavigate?: () => void }) {
  return (
    <ul className="profile-tabs__list">
      {profileTabs
        .filter((tab) => ids.includes(tab.id))
        .map((tab) => (
          <li key={tab.id}>
            <Link
              to="/profile"
              search={{ tab: tab.id }}
              className={tab.id === active ? 'profile-tabs__link profile-tabs__link--active' : 'profile-tabs__link'}
              aria-current={tab.id === active ? 'page' : undefined}
              onClick={onNavigate}
            >
              {tab.label}
            </Link>
          </li>
        ))}
    </ul>
  );
}

const allTabIds = profileTabs.map((tab) => tab.id);

/** The Subscriptions and Security tabs come from the app (src/app/ProfileRoute.tsx): features do not import each other. */
export function ProfilePage({ subscriptionsPanel, securityPanel }: AppPanels) {
  usePageHead({ title: pageTitle('Profile'), description: `Your ${site.brand} profile, diet, goals and subscription.` });
  const user = useMember();
  const { tab = 'information' } = profileRoute.useSearch();
  const [menuOpen, setMenuOpen] = useState(false);
  const activeLabel = profileTabs.find((candidate) => candidate.id === tab)?.label;

  return (
    <div className="profile">
      <aside className="profile__sidebar">
        <p className="profile__greeting">
          Hello, <strong>{user.username}</strong>
        </p>
        <nav aria-label="Profile sections">
          <TabLinks active={tab} ids={allTabIds} />
        </nav>
      </aside>

      <div className="profile__mobile-bar">
        <button
          type="button"
          className="button"
          aria-expanded={menuOpen}
          aria-controls="profile-menu"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close sections' : 'All sections'}
        </button>
        <span className="profile__mobile-title">{activeLabel}</span>
      </div>
      {menuOpen && <div className="nav-backdrop profile__backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <nav
        id="profile-menu"
        aria-label="All profile sections"
        className={menuOpen ? 'profile__drawer profile__drawer--open' : 'profile__drawer'}
      >
        <TabLinks active={tab} ids={allTabIds} onNavigate={() => setMenuOpen(false)} />
      </nav>

      <div className="profile__content">
        <h1 className="profile__title">Profile</h1>
        <TabPanel key={tab} tab={tab} user={user} subscriptionsPanel={subscriptionsPanel} securityPanel={securityPanel} />
      </div>

      <nav aria-label="Profile quick links" className="profile__bottom-bar">
        <TabLinks active={tab} ids={bottomBarTabs} />
      </nav>
    </div>
  );
}
