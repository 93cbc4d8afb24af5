import type { ReactNode } from 'react';

const sectionClass = {
  plain: 'section',
  tinted: 'section section--tinted',
  narrow: 'section section--narrow',
  cta: 'section cta',
} as const;

type SectionProps = { id: string; title: ReactNode; variant?: keyof typeof sectionClass; children: ReactNode };

/** A marketing page's section, named by its heading (`id` ties the two); a call to action keeps its own heading style. */
export function Section({ id, title, variant = 'plain', children }: SectionProps) {
  return (
    <section className={sectionClass[variant]} aria-labelledby={id}>
      <h2 id={id} className={variant === 'cta' ? undefined : 'section__title'}>
        {title}
      </h2>
      {children}
    </section>
  );
}
