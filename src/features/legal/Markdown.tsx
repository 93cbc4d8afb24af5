import type { MouseEvent } from 'react';
import { useRouter } from '@tanstack/react-router';
import Markdown, { defaultUrlTransform, type Components, type UrlTransform } from 'react-markdown';
import rehypeSanitize, { defaultSchema, type Options as SanitizeSchema } from 'rehype-sanitize';

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

const isPlainLeftClick = (event: MouseEvent) => event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/** Renders server-supplied markdown without raw HTML, scripts or unsafe URLs. */
export function SafeMarkdown({ children }: { children: string }) {
  const router = useRouter();
  const components: Components = {
    // Paths inside the site (e.g. /delete-profile) open in the app without a full reload.
    a: ({ href, children: label, node: _node, ...rest }) => {
      if (!href) return <span {...rest}>{label}</span>;
      const internal = href.startsWith('/') && !href.startsWith('//');
      return (
        <a
          {...rest}
          href={href}
          rel={internal ? undefined : 'noopener noreferrer'}
          onClick={
            internal
              ? (event) => {
                  if (!isPlainLeftClick(event)) return;
                  event.preventDefault();
                  void router.navigate({ href });
                }
              : undefined
          }
        >
          {label}
        </a>
      );
    },
    img: ({ node: _node, src, alt, ...rest }) => (src ? <img {...rest} src={src} alt={alt ?? ''} loading="lazy" /> : null),
  };
  return (
    <Markdown skipHtml rehypePlugins={[[rehypeSanitize, schema]]} urlTransform={markdownUrlTransform} components={components}>
      {children}
    </Markdown>
  );
}
