// The first script of a prerendered page (server/src/prerender/html.ts puts it in place of the app's
// own): the page is readable from its HTML and stylesheet, so the browser paints it first, and only
// then fetches and starts the app (the script named in data-src), which makes it interactive. A
// hidden tab paints nothing until shown, so it starts at once.
// The page's own chunks (data-chunks) are preloaded beside it, so hydration does not wait for a
// second round trip.
const start = () => {
  const script = document.getElementById('carnivo-app');
  if (!script?.dataset.src) return;
  for (const href of (script.dataset.chunks ?? '').split(' ').filter(Boolean)) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
  import(script.dataset.src);
};
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
