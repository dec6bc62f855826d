// Keys that name an object's prototype: `__proto__`, or `constructor` holding `prototype`. Refused
// in JSON bodies and in form metadata alike, so no code that copies a body can be led into
// changing a prototype.
export const PROTOTYPE_KEY_MESSAGE = 'must not have a key named __proto__, nor constructor.prototype';

/** Whether such a key is anywhere in `root` (walked with a stack: bodies may nest deep). */
export function hasPrototypeKey(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    const own = value as Record<string, unknown>;
    if (Object.hasOwn(own, '__proto__')) return true;
    const ctor = Object.hasOwn(own, 'constructor') ? own.constructor : undefined;
    if (ctor !== null && typeof ctor === 'object' && Object.hasOwn(ctor, 'prototype')) return true;
    for (const child of Object.values(own)) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
