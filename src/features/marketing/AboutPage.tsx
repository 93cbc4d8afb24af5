import { Link } from '@tanstack/react-router';
import { useIsLoggedIn } from '../../hooks/appContext';
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../hooks/usePageHead';
import { InfoCards } from './InfoCards';
import '../../styles/marketing.css';
import { Section } from './Section';

const values = [
  {
    title: 'Community',
    text: 'Carnivore and ketovore eaters still hear a lot of doubt. We build a place where members swap recipes, share progress and cheer each other on.',
  },
  {
    title: 'Quality',
    text: 'Every recipe is cooked and tested in a real kitchen, every tracker is checked with members before release, and we fix what you report fast.',
  },
  {
    title: 'Creativity',
    text: 'Meat-based eating can be anything but boring. We keep finding new cuts, techniques and meal ideas so your plate never gets old.',
  },
] as const;

/** SPEC §2 About: both calls to action go to /profile logged in, else /signup. */
function CallToAction({ label }: { label?: string }) {
  const loggedIn = useIsLoggedIn();
  return loggedIn ? (
    <Link to="/profile" className="button button--primary">
      {label ?? 'Explore Your Profile'}
    </Link>
  ) : (
    <Link to="/signup" className="button button--primary">
      {label ?? 'Join the Community'}
    </Link>
  );
}

export function AboutPage() {
  usePageHead({
    title: pageTitle('About'),
    description: `Who we are and why we build ${site.brand}, the app for carnivore and ketovore eaters: our mission and values.`,
  });
  return (
    <div className="marketing">
      <section className="page-hero">
        <h1>About {site.brand}</h1>
        <p className="page-hero__lead">
          We are a small team of meat-first eaters who wanted an app that takes the carnivore and ketovore way of eating seriously. Today{' '}
          {site.figures.users} people plan, cook and track with {site.brand}.
        </p>
        <CallToAction />
      </section>

      <Section id="about-mission" title="Our mission" variant="narrow">
        <p>
          Our mission is to make a carnivore or ketovore diet simple to start and easy to keep: clear recipes, honest tracking and people to
          ask when it gets hard. We want you to understand what works for your own body, not to follow rules you cannot check.
        </p>
        <p>
          Read how we started, who leads the company and where we are going on our <Link to="/company-details">Company Details</Link> page.
        </p>
      </Section>

      <Section id="about-values" title="What we value" variant="tinted">
        <InfoCards items={values} columns="three" />
      </Section>

      <Section id="about-start" title="Ready to give it a try?" variant="cta">
        <p>Set up your profile in two minutes and get a plan that fits your diet.</p>
        <CallToAction label="Get Started" />
      </Section>
    </div>
  );
}
