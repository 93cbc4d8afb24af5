/** Where a wrapped factory keeps the plugin's own. */
const OWN = Symbol.for('carnivo.pluginOwnFactory');

type Factory = (...args: never[]) => unknown;

/**
 * A plugin's service or controller factory replaced by `wrap(own)`, where `own` is always the plugin's own
 * factory. Strapi caches a plugin's module, so a second Strapi in one process (the server tests) extends the
 * object the first one extended already: wrapping the wrapped factory would run every wrapper twice (a
 * sign-up's session recorded twice). Every extension in server/src/extensions replaces factories this way.
 */
export function extendOnce<F extends Factory>(current: F, wrap: (own: F) => F): F {
  const own = (current as F & { [OWN]?: F })[OWN] ?? current;
  return Object.assign(wrap(own), { [OWN]: own });
}
