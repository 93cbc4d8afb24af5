import { Link } from '@tanstack/react-router';
import { Logo } from '../../components/Logo';
import { site } from '../../config/site';
import { FeatureScreenshot } from './FeatureScreenshot';
import { Footer } from './Footer';
import { StoreButtons } from './StoreButtons';
import { STAT_ROTATION_MS, faqs, featureCategories, heroStats, testimonials, trustBadges } from './content';
import { jsonLdText, landingStructuredData } from './structuredData';
import { useRotatingIndex } from './useRotatingIndex';
import { usePageHead } from '../../hooks/usePageHead';
import { usePrerendered } from '../../hooks/appContext';
import { useHydrated } from '../../hooks/useHydrated';
import '../../styles/marketing.css';
import { Section } from './Section';

function HeroStats() {
  // Prerendered: the controls work once the app has taken the page over.
  const hydrated = useHydrated();
  const { index, select, running, reducedMotion, pausedByUser, togglePaused } = useRotatingIndex(heroStats.length, STAT_ROTATION_MS);
  const stat = heroStats[index];
  return (
    <div className="hero-stats" data-rotating={running}>
      {/* Screen readers get all three at once; the rotating display is for the eyes only. */}
      <ul className="visually-hidden">
        {heroStats.map(({ value, label }) => (
          <li key={label}>
            {value} {label}
          </li>
        ))}
      </ul>
      <div className="hero-stats__display" aria-hidden="true" data-testid="hero-stat">
        <span key={index} className="hero-stats__item">
          <span className="hero-stats__value">{stat.value}</span>
          <span className="hero-stats__label">{stat.label}</span>
        </span>
      </div>
      <div className="hero-stats__controls">
        {heroStats.map(({ value, label }, position) => (
          <button
            key={label}
            type="button"
            className="hero-stats__dot"
            disabled={!hydrated}
            aria-label={`Show stat: ${value} ${label}`}
            aria-pressed={position === index}
            onClick={() => select(position)}
          />
        ))}
        {!reducedMotion && (
          <button type="button" className="hero-stats__pause" disabled={!hydrated} onClick={togglePaused}>
            {pausedByUser ? 'Play stats' : 'Pause stats'}
          </button>
        )}
      </div>
    </div>
  );
}

// The page's lists, one component each, so the page below reads as its sections.
function FeatureCategories() {
  return (
    <div className="category-grid">
      {featureCategories.map((category) => (
        <article key={category.id} className="category-card">
          <h3>{category.title}</h3>
          <p>{category.summary}</p>
          <ul className="check-list">
            {category.features.map((feature) => (
              <li key={feature.id}>{feature.title}</li>
            ))}
          </ul>
        </article>
      ))}
    </div>
  );
}

function Testimonials() {
  return (
    <div className="testimonial-grid">
      {testimonials.map(({ quote, name, detail }) => (
        <figure key={name} className="testimonial">
          <blockquote>
            <p>“{quote}”</p>
          </blockquote>
          <figcaption>
            <strong>{name}</strong>
            <span>{detail}</span>
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

function Faq() {
  return (
    <div className="faq">
      {faqs.map(({ question, answer }) => (
        <details key={question} className="faq__item">
          <summary>{question}</summary>
          <p>{answer}</p>
        </details>
      ))}
    </div>
  );
}

export function LandingPage() {
  usePageHead({
    title: `${site.brand} - Carnivore & Ketovore Diet App`,
    description: `${site.brand} is the carnivore and ketovore diet app: ${site.figures.recipes} recipes, a meal planner with a diet calendar, elimination-diet, weight and BMI tracking. Free download, free ${site.figures.landingFreePlanDays}-day meal plan.`,
    keywords:
      'carnivore diet app, ketovore diet app, carnivore meal plan, carnivore recipes, elimination diet tracker, keto meal planner, BMI tracker, weight loss app',
  });
  const heroFeature = featureCategories[2].features[1];
  // The origin the server rendered the page with (PUBLIC_URL), so that hydration renders the same; else the browser's.
  const origin = usePrerendered()?.publicUrl ?? (typeof window === 'undefined' ? '' : window.location.origin);
  return (
    <div className="marketing">
      <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdText(landingStructuredData(origin)) }} />
      <section className="landing-hero">
        <div className="landing-hero__inner">
          <div className="landing-hero__text">
            <Logo size={64} />
            <h1>The diet app made for carnivore and ketovore eaters</h1>
            <p className="landing-hero__subtitle">
              {site.figures.recipes} meat-first recipes, a meal planner with a diet calendar, and trackers for weight, digestion, mood and
              the foods that agree with you. All in {site.brand}.
            </p>
            <HeroStats />
            <p className="promo-banner">
              <strong>Free {site.figures.landingFreePlanDays}-day meal plan</strong> when you download {site.brand} today.
            </p>
            <div className="hero__actions landing-hero__actions">
              <Link to="/signup" className="button button--primary">
                Start Carnivore Journey
              </Link>
              <Link to="/features" className="button">
                See all features
              </Link>
            </div>
          </div>
          <div className="landing-hero__phone">
            <FeatureScreenshot feature={heroFeature} lazy={false} />
          </div>
        </div>
      </section>

      <Section id="landing-features" title="Everything your carnivore diet needs">
        <FeatureCategories />
        <p className="section__more">
          <Link to="/features">Explore every feature</Link>
        </p>
      </Section>

      <Section id="landing-testimonials" title="What members say" variant="tinted">
        <Testimonials />
      </Section>

      <Section id="landing-faq" title="Frequently asked questions" variant="narrow">
        <Faq />
      </Section>

      <Section id="landing-cta" title="Start eating the way your body wants" variant="cta">
        <p>
          Join {site.figures.users} members. Download {site.brand} for iPhone or Android and get your free{' '}
          {site.figures.landingFreePlanDays}-day meal plan.
        </p>
        <ul className="trust-badges">
          {trustBadges.map((badge) => (
            <li key={badge}>
              <span aria-hidden="true">✓</span> {badge}
            </li>
          ))}
        </ul>
        <StoreButtons className="store-buttons--center" />
      </Section>

      <Footer variant="landing" />
    </div>
  );
}
