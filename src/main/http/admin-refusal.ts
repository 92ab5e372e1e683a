// The admin API's refusals of a request before its handler's work: a query parameter or body field that
// breaks its declared rule (400), and a body that cannot be read as declared (400, 413, 415). mount
// answers both in the admin API's error shape: {error, message, parameter, allowed?, limit?}.

export class BadQuery extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    /** the valid values or parameter names, when they are a list */
    readonly allowed?: readonly string[],
  ) {
    super(message);
  }
}

/** A body refused by its Content-Type, size, depth or syntax: the value (described), the rule, the fix. */
export class BodyRefused extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    /** `body`, or `content-type` / `content-encoding` for a 415 */
    readonly parameter: 'body' | 'content-type' | 'content-encoding',
    message: string,
    readonly limit: { value: string; rule: string; fix: string },
  ) {
    super(message);
  }

  get error(): string {
    return this.status === 413
      ? 'RequestTooLarge'
      : this.status === 415
        ? 'UnsupportedMediaType'
        : 'BadRequest';
  }
}
