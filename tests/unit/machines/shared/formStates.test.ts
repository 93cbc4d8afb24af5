import { describe, expect, it } from 'vitest';
import { formStates } from '../../../../machines/shared/formStates';

describe('formStates: a one-form flow up to its answer', () => {
  it('rests in idle and failure alike, and is busy while submitting', () => {
    const resting = { on: { 'form.submitted': 'submitting' } };
    const submitting = { invoke: { src: 'send' } };
    expect(formStates(resting, submitting)).toEqual({
      idle: resting,
      failure: resting,
      submitting: { tags: ['busy'], invoke: { src: 'send' } },
    });
  });
});
