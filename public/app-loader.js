// The first script of a prerendered page (server/src/prerender/html.ts puts it in place of the app's
// own): the page is readable from its HTML and stylesheet, so the browser paints it first, and only
// then fetches and starts the app (the script named in data-src), which makes it interactive. A
// hidden tab paints nothing until shown, so it starts at once.
const start = () => {
  const src = document.getElementById('carnivo-app')?.dataset.src;
  if (src) import(src);
};
if (document.visibilityState === 'visible') requestAnimationFrame(() => setTimeout(start, 0));
else start();
