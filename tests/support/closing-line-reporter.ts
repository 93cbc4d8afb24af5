import type { Reporter, TestModule } from 'vitest/node';

/** Wall-clock span of one project: its first file's start to its last file's end. */
interface Span {
  start: number;
  end: number;
  files: number;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// CI reads a plain "N passed, N failed" closing line; vitest's own summary has another shape.
// Above it, each project's time, so a slow one shows where `npm test` spends its minutes.
export default class ClosingLineReporter implements Reporter {
  private spans = new Map<string, Span>();

  onTestModuleStart(testModule: TestModule) {
    const name = testModule.project.name;
    const span = this.spans.get(name) ?? { start: Date.now(), end: Date.now(), files: 0 };
    this.spans.set(name, span);
  }

  onTestModuleEnd(testModule: TestModule) {
    const span = this.spans.get(testModule.project.name);
    if (!span) return;
    span.end = Date.now();
    span.files += 1;
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const busy = new Map<string, number>();
    for (const testModule of testModules) {
      const name = testModule.project.name;
      busy.set(name, (busy.get(name) ?? 0) + testModule.diagnostic().duration);
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const lines = [...this.spans].map(
      ([name, span]) =>
        `${name}: ${seconds(span.end - span.start)} (${span.files} files, ${seconds(busy.get(name) ?? 0)} summed over files)`,
    );
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n`);
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
