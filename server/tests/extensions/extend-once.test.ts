import { describe, expect, it } from 'vitest';
import { extendOnce } from '../../src/extensions/extend-once';

/** extendOnce (src/extensions/extend-once.ts) without Strapi: what a second extension of a cached plugin gets. */
describe('extendOnce', () => {
  type Factory = () => string[];
  const wrap =
    (own: Factory): Factory =>
    () => [...own(), 'wrapped'];

  it('wraps the plugin’s own factory, and again only that one when the plugin object is extended a second time', () => {
    const plugin: { service: Factory } = { service: () => ['own'] };
    plugin.service = extendOnce(plugin.service, wrap);
    expect(plugin.service()).toEqual(['own', 'wrapped']);
    // A second Strapi in the same process: the cached plugin object already holds the wrapped factory.
    plugin.service = extendOnce(plugin.service, wrap);
    expect(plugin.service()).toEqual(['own', 'wrapped']);
  });

  it('hands a different wrapper the plugin’s own factory too', () => {
    const plugin: { service: Factory } = { service: () => ['own'] };
    plugin.service = extendOnce(plugin.service, wrap);
    plugin.service = extendOnce(plugin.service, (own) => () => [...own(), 'other']);
    expect(plugin.service()).toEqual(['own', 'other']);
  });
});
