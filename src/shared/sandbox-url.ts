// A running sandbox's address as a client is given it (connectSandbox, `tail --url`): an http(s) origin,
// nothing after it. What is wrong with one is said once, for every client that takes one.

/** The origin of `url`, or what is wrong with it (said of the value as given). */
export function sandboxOrigin(url: string): { origin: string } | { problem: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return {
      problem: `${JSON.stringify(url)} is not a URL: pass the sandbox's address, e.g. http://127.0.0.1:4545`,
    };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return {
      problem: `${JSON.stringify(url)} must be an http:// or https:// address, e.g. http://127.0.0.1:4545`,
    };
  if (parsed.pathname !== '/' || parsed.search || parsed.hash)
    return {
      problem: `${JSON.stringify(url)} has a path or query: pass only the origin, e.g. ${parsed.origin}`,
    };
  return { origin: parsed.origin };
}
