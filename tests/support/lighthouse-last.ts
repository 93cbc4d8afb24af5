import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * vitest's own order, with the Lighthouse audit moved to the very end: after the other browser tests
 * rather than wherever the file-size and duration cache puts it. In one full run it came second, just
 * after the e2e server started, and Total Blocking Time read 300-720 ms on three pages; run late in the
 * run before, the same build read 135-160 ms. Its budgets need the machine as quiet as a run gets.
 */
export default class LighthouseLast extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const audit = (spec: TestSpecification) => spec.moduleId.endsWith('/tests/e2e/lighthouse.test.ts');
    return [...sorted.filter((spec) => !audit(spec)), ...sorted.filter(audit)];
  }
}
