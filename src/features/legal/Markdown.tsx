import Markdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';
import { isSitePath } from './siteLinks';

/** SPEC §5: rendered markdown allows these link protocols; other links are blanked. */
export const LINK_PROTOCOLS = ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'] as const;
const IMAGE_PROTOCOLS = ['http', 'https'] as const;

const schema: SanitizeSchema = {
  ...defaultSchema,
  protocols: { ...defaultSchema.protocols, href: [...LINK_PROTOCOLS], src: [...IMAGE_PROTOCOLS] },
};

function protocolOf(url: string): string | null {
  const colon = url.indexOf(':');
  if (colon === -1) return null;
  // A colon after '/', '?' or '#' belongs to a relative URL, not to a protocol.
  const firstDelimiter = url.search(/[/?#]/);
  if (firstDelimiter !== -1 && firstDelimiter < colon) return null;
  return url.slice(0, colon).toLowerCase();
}

/** Links keep http(s), irc(s), mailto and xmpp (and relative paths); images only http(s). Others become ''. */
export const markdownUrlTransform: UrlTransform = (url, key) => {
  const safe = defaultUrlTransform(url.trim());
  if (!safe) return '';
  const protocol = protocolOf(safe);
  if (protocol === null) return safe;
  const allowed: readonly string[] = key === 'src' ? IMAGE_PROTOCOLS : LINK_PROTOCOLS;
  return allowed.includes(protocol) ? safe : '';
};

/**
 * Renders server-supplied markdown without raw HTML, scripts or unsafe URLs. Links to paths inside the
 * site open in the app through the container's click handler (openSiteLink), as in the prerendered text.
 */
export function SafeMarkdown({ children }: { children: string }) {
  const components: Components = {
    a: ({ href, children: label, node: _node, ...rest }) =>
      href ? (
        <a {...rest} href={href} rel={isSitePath(href) ? undefined : 'noopener noreferrer'}>
          {label}
        </a>
      ) : (
        <span {...rest}>{label}</span>
      ),
    img: ({ node: _node, src, alt, ...rest }) => (src ? <img {...rest} src={src} alt={alt ?? ''} loading="lazy" /> : null),
  };
  return (
    <Markdown skipHtml rehypePlugins={[[rehypeSanitize, schema]]} urlTransform={markdownUrlTransform} components={components}>
      {children}
    </Markdown>
  );
}
