// @ts-check
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/**
 * Ignores the `types` of xstate's setup({ types: { context: {} as ... } }): they only inform TypeScript and
 * nothing reads them at run time, so every mutant there would survive as an equivalent one.
 */
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'xstate-setup-types', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      if (!path.isObjectProperty() || !path.get('key').isIdentifier({ name: 'types' })) return undefined;
      const call = path.parentPath.parentPath;
      if (call?.isCallExpression() && call.get('callee').isIdentifier({ name: 'setup' })) {
        return "setup()'s types only inform TypeScript";
      }
      return undefined;
    },
  }),
];
/**
 * `npm run test:mutation`: StrykerJS mutates machines/ and runs the machine unit tests against each
 * mutant (see vitest.mutation.config.ts for why only those). Prints the score and every surviving
 * mutant; the HTML report is reports/mutation/index.html.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // This file also holds the ignorer above.
  plugins: ['@stryker-mutator/vitest-runner', './stryker.config.mjs'],
  ignorers: ['xstate-setup-types'],
  // The flows and their shared pieces; the services and rules under machines/ have their own unit tests.
  mutate: ['machines/*.machine.ts', 'machines/shared/**/*.ts'],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'html', 'progress'],
  clearTextReporter: { allowColor: false, reportTests: false, reportScoreTable: true },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  // Two cores, shared with other work.
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  // The sandbox needs the SPA sources and tests; the API client imports server/src/contract.
  ignorePatterns: [
    '/server/*',
    '!/server/src',
    '/dist',
    '/dist-ssr',
    '/reports',
    '/test-results',
    '/.e2e',
    '/public',
    '/tests/e2e',
    '/.stryker-tmp*',
  ],
  // Stryker rewrites tsconfig paths that leave the sandbox through TypeScript's JS API, which TypeScript 7
  // no longer has; ours stay inside, so it is pointed at no file and skips that step.
  tsconfigFile: 'stryker-no-tsconfig.json',
  thresholds: { high: 95, low: 90, break: null },
};

export default config;
