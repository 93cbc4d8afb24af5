import { useId, type FormEvent } from 'react';
import { pageTitle, site } from '../../config/site';
import { Footer } from './Footer';
import { StoreButtons } from './StoreButtons';
import { usePageHead } from '../../hooks/usePageHead';
import { PhoneCard, PostalAddress } from './ContactDetails';
import '../../styles/marketing.css';
import { useHydrated } from '../../hooks/useHydrated';
import { Section } from './Section';
import { TextField } from '../../components/form/TextField';

/** SPEC §8: the Contact form sends nothing and shows this alert. */
export const CONTACT_DISABLED_MESSAGE = `Form submission is disabled due to sandbox restrictions. Please email ${site.contactEmail} directly.`;

export function ContactPage() {
  // Prerendered: until the app takes over, a submit would be a plain page request, so wait.
  const hydrated = useHydrated();
  usePageHead({
    title: pageTitle('Contact'),
    description: `Reach the ${site.brand} team by phone, e-mail or post, and download the app.`,
  });
  const messageId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    window.alert(CONTACT_DISABLED_MESSAGE);
  };

  return (
    <div className="marketing">
      <section className="page-hero">
        <h1>Contact Us</h1>
        <p className="page-hero__lead">Questions about your plan, your account or a subscription? Our team answers every message.</p>
      </section>

      <section className="section" aria-labelledby="contact-ways">
        <h2 id="contact-ways" className="visually-hidden">
          Ways to reach us
        </h2>
        <div className="card-grid card-grid--three">
          <PhoneCard />
          <article className="info-card">
            <h3>E-mail</h3>
            <p>
              <a href={`mailto:${site.contactEmail}`}>{site.contactEmail}</a>
            </p>
            <p className="muted">We answer within one business day.</p>
          </article>
          <article className="info-card">
            <h3>Address</h3>
            <PostalAddress />
          </article>
        </div>
      </section>

      <Section id="contact-form-title" title="Send us a message" variant="narrow">
        <form className="contact-form" method="post" onSubmit={submit} noValidate>
          <TextField label="Name" name="name" autoComplete="name" />
          <TextField label="Email" name="email" type="email" autoComplete="email" />
          <div className="field">
            <label htmlFor={messageId}>Message</label>
            <textarea id={messageId} name="message" rows={5} />
          </div>
          <button type="submit" className="button button--primary" disabled={!hydrated}>
            Send Message
          </button>
        </form>
      </Section>

      <Section id="contact-download" title="Get the app" variant="cta">
        <p>Free download, with a free {site.figures.downloadFreePlanDays}-day personalized meal plan.</p>
        <StoreButtons className="store-buttons--center" />
      </Section>

      <Footer variant="contact" />
    </div>
  );
}
