import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryHistory, createRootRoute, createRouter } from '@tanstack/react-router';
import { LINK_PROTOCOLS, SafeMarkdown, markdownUrlTransform } from '../../src/features/legal/Markdown';

/** Renders SafeMarkdown inside a bare router (its internal links navigate with the router). */
async function renderMarkdown(markdown: string) {
  const rootRoute = createRootRoute({
    component: () => <SafeMarkdown>{`${markdown}\n\n[the end](https://example.com/end)`}</SafeMarkdown>,
  });
  const router = createRouter({ routeTree: rootRoute, history: createMemoryHistory({ initialEntries: ['/'] }) });
  const view = render(<RouterProvider router={router} />);
  await screen.findByRole('link', { name: 'the end' });
  return view;
}

const hostile = [
  '[js link](javascript:alert(1))',
  '[JS upper](JAVASCRIPT:alert(2))',
  '[js spaced]( javascript:alert(3))',
  '[js entity](jav&#x09;ascript:alert(4))',
  '[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCg1KTwvc2NyaXB0Pg==)',
  '[vbscript](vbscript:msgbox(6))',
  '[file](file:///etc/passwd)',
  '<script>window.__pwned = true</script>',
  '<img src="x" onerror="window.__pwned = true">',
  '<a href="https://example.com" onclick="window.__pwned = true">raw anchor</a>',
  '<div onmouseover="window.__pwned = true">hover me</div>',
  '![js image](javascript:alert(7))',
  '![data image](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoOCk+)',
  '<iframe src="javascript:alert(9)"></iframe>',
  '<style>body { display: none }</style>',
  '[ref link][evil]\n\n[evil]: javascript:alert(10)',
].join('\n\n');

describe('SafeMarkdown (SPEC §5)', () => {
  it('allows exactly http, https, irc, ircs, mailto and xmpp links', () => {
    expect(LINK_PROTOCOLS).toEqual(['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp']);
    for (const url of [
      'http://a.example',
      'https://a.example',
      'irc://irc.example/x',
      'ircs://irc.example/x',
      'mailto:a@b.co',
      'xmpp:a@b.co',
      '/terms',
      '#top',
      'relative/page',
    ]) {
      expect(markdownUrlTransform(url, 'href', {} as never)).toBe(url);
    }
    for (const url of [
      'javascript:alert(1)',
      'data:text/html,x',
      'vbscript:x',
      'file:///etc/passwd',
      'ftp://a.example',
      'tel:+15035550142',
    ]) {
      expect(markdownUrlTransform(url, 'href', {} as never)).toBe('');
    }
    expect(markdownUrlTransform('mailto:a@b.co', 'src', {} as never)).toBe('');
    expect(markdownUrlTransform('https://img.example/a.png', 'src', {} as never)).toBe('https://img.example/a.png');
  });

  it('renders hostile markdown harmless', async () => {
    const flags = window as { __pwned?: boolean };
    flags.__pwned = false;
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
    const { container } = await renderMarkdown(hostile);

    expect(container.querySelectorAll('script, iframe, style, object, embed')).toHaveLength(0);
    const handlers = [...container.querySelectorAll('*')].flatMap((element) =>
      [...element.attributes].filter((attribute) => attribute.name.toLowerCase().startsWith('on')).map((a) => a.name),
    );
    expect(handlers).toEqual([]);

    const hrefs = [...container.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toEqual(['https://example.com/end']);
    for (const label of ['js link', 'JS upper', 'js spaced', 'js entity', 'data link', 'vbscript', 'file', 'ref link']) {
      const text = screen.getByText(label);
      expect(text.closest('a'), label).toBeNull();
    }
    const sources = [...container.querySelectorAll('img')].map((img) => img.getAttribute('src') ?? '');
    expect(sources.filter((src) => /^\s*(javascript|data|vbscript):/i.test(src))).toEqual([]);
    expect(sources.filter((src) => src === '' || src === 'x')).toEqual([]);

    expect(container.textContent).not.toContain('window.__pwned');
    expect(flags.__pwned).toBe(false);
    expect(alert).not.toHaveBeenCalled();
  });

  it('keeps safe markdown: headings, lists, emphasis and allowed links', async () => {
    const { container } = await renderMarkdown(
      '## Your rights\n\n- **Access** your data\n- *Delete* it on [Delete Account](/delete-profile)\n\n[Mail](mailto:support@carnivo.app) [Chat](xmpp:help@carnivo.app) [IRC](ircs://irc.example/carnivo) [Web](https://carnivo.app)',
    );
    screen.getByRole('heading', { level: 2, name: 'Your rights' });
    expect(container.querySelectorAll('li')).toHaveLength(2);
    expect(container.querySelector('strong')?.textContent).toBe('Access');
    const links = Object.fromEntries([...container.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]));
    expect(links).toEqual({
      'Delete Account': '/delete-profile',
      Mail: 'mailto:support@carnivo.app',
      Chat: 'xmpp:help@carnivo.app',
      IRC: 'ircs://irc.example/carnivo',
      Web: 'https://carnivo.app',
      'the end': 'https://example.com/end',
    });
  });
});
