// @ts-nocheck
import { pageTitle, site } from '../../config/site';
import { usePageHead } from '../../app/usePageHead';
import { PostalAddress } from './PostalAddress';
import { InfoCards } from './InfoCards';
import '../../styles/marketing.css';

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
  { title: 'Health First', text: 'Every feature has to help you feel better. We publish how we calculate your numbers and tell you when to see a doctor.' },
  { title: 'Innovation', text: 'We build trackers no one else has for meat-based eating, from food reintroduction schedules to mood and clarity logs.' },
  { title: 'Community', text: 'Our members shape the roadmap. Many features started as a suggestion in a support chat.' },
  { title: 'Transparency', text: 'Clear prices, a 30-day money-back guarantee and a privacy policy written to be read.' },
] as const;

export function CompanyDetailsPage() {
  usePageHead({
    title: pageTitle('Company Details'),
    description: `${site.brand}'s founders, values, leadership team, milestones and how to reach the company.`,
  });
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

      <section className="section section--narrow" aria-labelledby="company-story">
        <h2 id="company-story" className="section__title">
          Our founders' stories
        </h2>
        {founders.map(({ name, story }) => (
          <p key={name}>{story}</p>
        ))}
        <p>
          They met in a carnivore cooking group in 2022, compared notes and spreadsheets, and decided that meat-first
          eaters deserved a real app. {site.brand} was founded the following year.
        </p>
      </section>

      <section className="section section--tinted" aria-labelledby="company-values">
        <h2 id="company-values" className="section__title">
          Our values
        </h2>
        <InfoCards items={values} columns="four" />
      </section>

      <section className="section" aria-labelledby="company-team">
        <h2 id="company-team" className="section__title">
          Leadership team
        </h2>
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
      </section>

      <section className="section section--tinted" aria-labelledby="company-milestones">
        <h2 id="company-milestones" className="section__title">
          Milestones
        </h2>
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
      </section>

      <section className="section" aria-labelledby="company-contact">
        <h2 id="company-contact" className="section__title">
          Get in touch
        </h2>
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
          <article className="info-card">
            <h3>Phone</h3>
            <p>
              <a href={`tel:${site.phone.replace(/[^+\d]/g, '')}`}>{site.phone}</a>
            </p>
            <p className="muted">{site.supportHours}</p>
          </article>
        </div>
        <ul className="social-links" aria-label="Social media">
          <li>
            <a href={site.social.facebook} target="_blank" rel="noopener noreferrer">
              Facebook<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
          <li>
            <a href={site.social.twitter} target="_blank" rel="noopener noreferrer">
              Twitter<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
          <li>
            <a href={site.social.instagram} target="_blank" rel="noopener noreferrer">
              Instagram<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </li>
        </ul>
      </section>
    </div>
  );
}
