/**
 * Polls `read` every 100 ms until `done` holds, for end-to-end tests over a real server (the machine is shared:
 * generous timeouts, never fixed sleeps). Fails with what it waited for and the last value seen.
 */
export async function waitFor<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const started = Date.now();
  let value = await read();
  while (!done(value)) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value).slice(0, 2000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}
