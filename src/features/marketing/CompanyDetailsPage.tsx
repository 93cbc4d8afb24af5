import { pageTitle, site } from '../../config/site';
import { MONEY_BACK_DAYS } from '../../../server/src/contract/subscriptions';
import { usePageHead } from '../../hooks/usePageHead';
import { PhoneCard, PostalAddress } from './ContactDetails';
import { InfoCards } from './InfoCards';
import '../../styles/marketing.css';
import { Section } from './Section';

const founders = [
  {
    name: 'Dana Whitaker',
    role: 'Co-founder and CEO',
    initials: 'DW',
    story:
      'Dana spent ten years building health software before years of digestive trouble led her to an elimination diet and, in the end, to eating carnivore. Tracking it all in spreadsheets is how the first version of the elimination tracker was born.',
  },
  {
    name: 'Sam Okafor',
    role: 'Co-founder and CTO',
    initials: 'SO',
    story:
      'Sam is a former competitive rower who moved to a ketovore diet for steadier energy. He wrote the first meal planner for himself and his teammates, and still cooks every new recipe before it ships.',
  },
] as const;

const values = [
  {
    title: 'Health First',
    text: 'Every feature has to help you feel better. We publish how we calculate your numbers and tell you when to see a doctor.',
  },
  {
    title: 'Innovation',
    text: 'We build trackers no one else has for meat-based eating, from food reintroduction schedules to mood and clarity logs.',
  },
  { title: 'Community', text: 'Our members shape the roadmap. Many features started as a suggestion in a support chat.' },
  { title: 'Transparency', text: `Clear prices, a ${MONEY_BACK_DAYS}-day money-back guarantee and a privacy policy written to be read.` },
] as const;

const socialLinks = [
  ['Facebook', site.social.facebook],
  ['Twitter', site.social.twitter],
  ['Instagram', site.social.instagram],
] as const;

export function CompanyDetailsPage() {
  usePageHead({
    title: pageTitle('Company Details'),
    description: `${site.brand}'s founders, values, leadership team, milestones and how to reach the company.`,
  });
  // oxlint-disable-next-line react/purity -- read at each render on purpose: the last milestone names this year
  const currentYear = new Date().getFullYear();
  const milestones = [
    { year: '2023', title: 'Company founded', text: `Dana and Sam found ${site.brand} in Portland, Oregon.` },
    { year: '2023', title: 'App launched', text: 'The first version ships on the App Store and Google Play.' },
    { year: '2024', title: '10,000 users', text: 'Ten thousand people track their diet with us.' },
    { year: '2024', title: `${site.figures.users} community`, text: `The ${site.brand} community passes fifty thousand members.` },
    { year: String(currentYear), title: 'Global expansion', text: 'New languages, units and local recipes for members around the world.' },
  ];

  return (
    <div className="marketing">
      <section className="page-hero">
        <h1>Company Details</h1>
        <p className="page-hero__lead">
          {site.brand} is an independent company based in Portland, Oregon. Here is who we are and how to reach us.
        </p>
      </section>

      <Section id="company-story" title="Our founders' stories" variant="narrow">
        {founders.map(({ name, story }) => (
          <p key={name}>{story}</p>
        ))}
        <p>
          They met in a carnivore cooking group in 2022, compared notes and spreadsheets, and decided that meat-first eaters deserved a real
          app. {site.brand} was founded the following year.
        </p>
      </Section>

      <Section id="company-values" title="Our values" variant="tinted">
        <InfoCards items={values} columns="four" />
      </Section>

      <Section id="company-team" title="Leadership team">
        <div className="card-grid card-grid--two">
          {founders.map(({ name, role, initials }) => (
            <article key={name} className="person-card">
              <svg className="person-card__avatar" width="72" height="72" viewBox="0 0 72 72" aria-hidden="true" focusable="false">
                <circle cx="36" cy="36" r="36" fill="#f4d9c6" />
                <text x="36" y="44" textAnchor="middle" fontSize="24" fontWeight="700" fill="#7a1f1f">
                  {initials}
                </text>
              </svg>
              <div>
                <h3>{name}</h3>
                <p className="person-card__role">{role}</p>
              </div>
            </article>
          ))}
        </div>
      </Section>

      <Section id="company-milestones" title="Milestones" variant="tinted">
        <ol className="timeline">
          {milestones.map(({ year, title, text }) => (
            <li key={title} className="timeline__item">
              <span className="timeline__year">{year}</span>
              <div>
                <h3>{title}</h3>
                <p>{text}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="company-contact" title="Get in touch">
        <div className="card-grid card-grid--three">
          <article className="info-card">
            <h3>Headquarters</h3>
            <PostalAddress />
          </article>
          <article className="info-card">
            <h3>Business e-mail</h3>
            <p>
              <a href={`mailto:${site.businessEmail}`}>{site.businessEmail}</a>
            </p>
          </article>
          <PhoneCard />
        </div>
        <ul className="social-links" aria-label="Social media">
          {socialLinks.map(([name, href]) => (
            <li key={name}>
              <a href={href} target="_blank" rel="noopener noreferrer">
                {name}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          ))}
        </ul>
      </Section>
    </div>
  );
}
