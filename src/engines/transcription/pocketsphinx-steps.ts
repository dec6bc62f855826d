// The decode algorithm yields its long native calls as steps; these drivers run them on the
// calling thread or on koffi's thread pool, so the algorithm is written once.

/** A native call that can be run synchronously or on koffi's async pool. */
export interface Step {
  sync(): number;
  async(): Promise<number>;
}

export function step<A extends unknown[]>(
  f: ((...args: A) => number) & { async: (...args: [...A, (err: unknown, res: number) => void]) => void },
  ...args: A
): Step {
  return {
    sync: () => f(...args),
    async: () =>
      new Promise((resolve, reject) => {
        f.async(...args, (err: unknown, res: number) => (err ? reject(err) : resolve(res)));
      }),
  };
}

export function runSync<R>(g: Generator<Step, R, number>): R {
  let it = g.next();
  while (!it.done) {
    let rv: number;
    try {
      rv = it.value.sync();
    } catch (e) {
      it = g.throw(e); // run the generator's cleanup
      continue;
    }
    it = g.next(rv);
  }
  return it.value;
}

export async function runAsync<R>(g: Generator<Step, R, number>): Promise<R> {
  let it = g.next();
  while (!it.done) {
    let rv: number;
    try {
      rv = await it.value.async();
    } catch (e) {
      it = g.throw(e);
      continue;
    }
    it = g.next(rv);
  }
  return it.value;
}

