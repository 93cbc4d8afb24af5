import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { deleteAccountMachine } from '../../machines/deleteAccount.machine';
import { deleteAccountPathTest } from '../support/deleteAccountPathTest';
import { describeModelPath, modelPaths } from '../support/flowModel';
import { replayPath } from '../support/pathTests';
import { transitionRecorder, untakenTransitions } from '../support/productionTransitions';

/**
 * The production machine built from a changed copy of its config. `provide` builds a real machine
 * from `this.config`, so calling it on a copy keeps the production machine's type without a cast.
 */
function withStates(states: Partial<NonNullable<typeof deleteAccountMachine.config.states>>) {
  const config = { ...deleteAccountMachine.config, states: { ...deleteAccountMachine.config.states, ...states } };
  return deleteAccountMachine.provide.call({ config, implementations: deleteAccountMachine.implementations }, {});
}

/** Every replay of the deleteAccount path test and the completeness check, run on `machine`. */
async function runPathTests(machine: typeof deleteAccountMachine) {
  const test = deleteAccountPathTest(machine);
  const recorder = transitionRecorder(machine);
  const failures: string[] = [];
  for (const path of modelPaths(test.model)) {
    try {
      await replayPath(test, path, recorder.inspect);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    } finally {
      cleanup();
      localStorage.clear();
      vi.useRealTimers();
    }
  }
  return {
    failures,
    untaken: untakenTransitions(test.flow, machine, recorder.taken),
    paths: modelPaths(test.model).map((path) => describeModelPath(path)),
  };
}

describe('the path tests catch a wrong flow (issue 14)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pass on the production machine', async () => {
    const { failures, untaken } = await runPathTests(deleteAccountMachine);
    expect(failures).toEqual([]);
    expect(untaken).toEqual([]);
  }, 60_000);

  it('fail when "Delete My Account" after a failure deletes without the confirmation dialog', async () => {
    const wrong = withStates({ failure: { on: { 'deletion.requested': { target: 'deleting' } } } });
    const { failures, untaken, paths } = await runPathTests(wrong);
    // Only the paths through a failure fail (one for each subscription notice), at the step after it,
    // naming the flow and the step.
    const throughFailure = paths.filter((path) => /failure(Ends|Refundable|Unknown)? → deletion\.requested/.test(path));
    expect(throughFailure).toHaveLength(4);
    expect(failures).toHaveLength(4);
    for (const failure of failures) {
      expect(failure).toMatch(
        /^deleteAccount: notOpened → .* → failure(Ends|Refundable|Unknown)? → deletion\.requested → confirming\w*: expected 'Yes, Delete' and 'Cancel' enabled/,
      );
    }
    expect(untaken).toEqual([]);
  }, 60_000);

  it('fail when the dialog closes by itself after 60 s, a transition no path takes', async () => {
    const wrong = withStates({ confirming: { ...deleteAccountMachine.config.states?.confirming, after: { 60_000: 'idle' } } });
    const { failures, untaken } = await runPathTests(wrong);
    expect(failures).toEqual([]);
    expect(untaken).toEqual(['deleteAccount: transition confirming --after 60000 ms--> idle was never taken by a path test']);
  }, 60_000);
});
