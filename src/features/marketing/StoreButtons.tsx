import { site } from '../../config/site';

function AppleGlyph() {
  return (
    <svg width="22" height="26" viewBox="0 0 22 26" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M18.2 13.8c0-3 2.5-4.5 2.6-4.6-1.4-2.1-3.6-2.3-4.4-2.4-1.9-.2-3.6 1.1-4.6 1.1-.9 0-2.4-1.1-4-1-2 0-3.9 1.2-5 3-2.1 3.7-.5 9.2 1.5 12.2 1 1.5 2.2 3.1 3.8 3 1.5-.1 2.1-1 3.9-1s2.3 1 3.9 1c1.6 0 2.7-1.5 3.7-3 1.2-1.7 1.6-3.3 1.7-3.4-.1 0-3.1-1.2-3.1-4.9zM15.2 4.8c.8-1 1.4-2.4 1.2-3.8-1.2.1-2.6.8-3.5 1.8-.8.9-1.4 2.3-1.2 3.7 1.3.1 2.7-.7 3.5-1.7z"
      />
    </svg>
  );
}

function PlayGlyph() {
  return (
    <svg width="22" height="24" viewBox="0 0 22 24" aria-hidden="true" focusable="false">
      <path fill="#34a853" d="M1 1.5 12.6 12 1 22.5c-.4-.3-.6-.8-.6-1.4V2.9c0-.6.2-1.1.6-1.4z" />
      <path fill="#fbbc04" d="m16.4 8.3-3.8 3.7 3.8 3.7 4.4-2.5c1.2-.7 1.2-1.9 0-2.5z" />
      <path fill="#ea4335" d="M12.6 12 1 22.5c.4.4 1.1.4 1.8 0l13.6-6.8z" />
      <path fill="#4285f4" d="M12.6 12 16.4 8.3 2.8 1.5C2.1 1.1 1.4 1.1 1 1.5z" />
    </svg>
  );
}

const stores = [
  { href: site.stores.appStore, Glyph: AppleGlyph, lead: 'Download on the', name: 'App Store' },
  { href: site.stores.googlePlay, Glyph: PlayGlyph, lead: 'Get it on', name: 'Google Play' },
];

/** Drawn store buttons (not the stores' trademark artwork); each opens its store in a new tab. */
export function StoreButtons({ className = '' }: { className?: string }) {
  return (
    <div className={`store-buttons ${className}`.trim()}>
      {stores.map(({ href, Glyph, lead, name }) => (
        <a key={name} className="store-button" href={href} target="_blank" rel="noopener noreferrer">
          <Glyph />
          <span className="store-button__text">
            <small>{lead}</small>
            {` ${name}`}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </span>
        </a>
      ))}
    </div>
  );
}
