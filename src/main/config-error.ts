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

/**
 * Several problems of one config at once, each a ConfigError: a user fixes them in one round, not one
 * run each. Its message lists them, a line each, as each alone would say it.
 */
export class ConfigErrors extends ConfigError {
  constructor(readonly problems: readonly ConfigError[]) {
    super('', `${problems.length} problems:\n${problems.map((p) => `  ${p.message}`).join('\n')}`);
  }
}

/**
 * Parses a config's parts one after the other and keeps each part's problem: a part that fails gives
 * undefined, and `settle` throws every problem found (one as itself, several as ConfigErrors).
 */
export class ConfigProblems {
  private readonly found: ConfigError[] = [];

  part<T>(parse: () => T): T | undefined {
    try {
      return parse();
    } catch (err) {
      if (err instanceof ConfigErrors) this.found.push(...err.problems);
      else if (err instanceof ConfigError) this.found.push(err);
      else throw err;
      return undefined;
    }
  }

  add(problem: ConfigError): void {
    this.found.push(problem);
  }

  /** Throws what was found; returns when nothing was. */
  settle(): void {
    if (this.found.length === 1) throw this.found[0]!;
    if (this.found.length > 1) throw new ConfigErrors(this.found);
  }
}
