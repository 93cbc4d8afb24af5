// @ts-nocheck
export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
};

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A queue of calls to a promise-returning API double, each settled by the test. */
export function deferredCalls<TInput, TOutput>() {
  const calls: Array<{ input: TInput; settle: Deferred<TOutput> }> = [];
  return {
    calls,
    handler: (input: TInput): Promise<TOutput> => {
      const settle = deferred<TOutput>();
      calls.push({ input, settle });
      return settle.promise;
    },
    last(): { input: TInput; settle: Deferred<TOutput> } {
      const call = calls.at(-1);
      if (!call) throw new Error('The API double was never called');
      return call;
    },
  };
}
