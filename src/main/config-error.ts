// One error type for every bad input from configuration: names the key, the value, the rule and the fix.

export class ConfigError extends Error {
  constructor(
    /** dotted key, e.g. `accounts[0].feeds[1].interval` */
    readonly key: string,
    /** what is wrong and the fix, without the source and key */
    readonly reason: string,
    /** where the value came from: a file path, `environment SEARCH_SANDBOX_PORT`, `flag --port` */
    readonly source?: string,
  ) {
    super(`${source ? `${source}: ` : ''}${key ? `${key}: ` : ''}${reason}`);
    this.name = 'ConfigError';
  }
}
