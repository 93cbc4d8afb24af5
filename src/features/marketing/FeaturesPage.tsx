import { pageTitle, site } from '../../config/site';
import { FeatureScreenshot } from './FeatureScreenshot';
import { StoreButtons } from './StoreButtons';
import { featureCategories } from './content';
import { usePageHead } from '../../hooks/usePageHead';
import '../../styles/marketing.css';
import { Section } from './Section';

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
          Everything in the {site.brand} app, in three parts: a plan made for you, tracking that shows what works, and planning and support
          that keep you going. Download it and get a free {site.figures.downloadFreePlanDays}-day personalized meal plan.
        </p>
      </section>

      {featureCategories.map((category, position) => (
        <Section key={category.id} id={`category-${category.id}`} title={category.title} variant={position % 2 === 1 ? 'tinted' : 'plain'}>
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
        </Section>
      ))}

      <Section id="features-download" title="Try it free" variant="cta">
        <p>Free download on both app stores, with a free {site.figures.downloadFreePlanDays}-day personalized meal plan.</p>
        <StoreButtons className="store-buttons--center" />
      </Section>
    </div>
  );
}
