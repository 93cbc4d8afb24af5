// @ts-nocheck
import { pageTitle, site } from '../../config/site';
import { FeatureScreenshot } from './FeatureScreenshot';
import { StoreButtons } from './StoreButtons';
import { featureCategories } from './content';
import { usePageHead } from '../../app/usePageHead';
import '../../styles/marketing.css';

export function FeaturesPage() {
  usePageHead({
    title: pageTitle('Features'),
    description: `Every ${site.brand} feature: recipes and meal plans, elimination and food-introduction trackers, weight, cycle, digestion and mood tracking, meal planner and 24/7 expert support.`,
  });
  return (
    <div className="marketing">
      <section className="page-hero">
        <h1>Carnivore Diet Features</h1>
        <p className="page-hero__lead">
          Everything in the {site.brand} app, in three parts: a plan made for you, tracking that shows what works, and
          planning and support that keep you going. Download it and get a free {site.figures.downloadFreePlanDays}-day
          personalized meal plan.
        </p>
      </section>

      {featureCategories.map((category, position) => (
        <section
          key={category.id}
          className={position % 2 === 1 ? 'section section--tinted' : 'section'}
          aria-labelledby={`category-${category.id}`}
        >
          <h2 id={`category-${category.id}`} className="section__title">
            {category.title}
          </h2>
          <p className="section__lead">{category.summary}</p>
          <div className="feature-grid">
            {category.features.map((feature) => (
              <article key={feature.id} className="feature-card">
                <FeatureScreenshot feature={feature} />
                <h3>{feature.title}</h3>
                <p>{feature.description}</p>
              </article>
            ))}
          </div>
        </section>
      ))}

      <section className="section cta" aria-labelledby="features-download">
        <h2 id="features-download">Try it free</h2>
        <p>
          Free download on both app stores, with a free {site.figures.downloadFreePlanDays}-day personalized meal plan.
        </p>
        <StoreButtons className="store-buttons--center" />
      </section>
    </div>
  );
}
