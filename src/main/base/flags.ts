// Command-line flags, read the same way by every command: an unknown flag, a flag without its value, a
// single-value flag given twice or a value outside its choices is a UsageError whose one line names the
// flag and what the command takes.
import { didYouMean } from '../../shared/nearest';
import { parseArgs } from 'node:util';

export class UsageError extends Error {}

type FlagType = {
  type: 'string' | 'boolean';
  multiple?: boolean;
  short?: string;
  /** a string flag given an empty value (`--data ''`): what to give instead, e.g. 'a directory, e.g. --data DIR' */
  empty?: string;
  /** a whole number, 0 or more (a count, a port): a value that starts with a dash is never one */
  count?: true;
};
export type FlagOptions = Record<string, FlagType>;

type FlagValue<F extends FlagType> = F['type'] extends 'boolean'
  ? F['multiple'] extends true
    ? boolean[]
    : boolean
  : F['multiple'] extends true
    ? string[]
    : string;

export type FlagValues<O extends FlagOptions> = { [K in keyof O]?: FlagValue<O[K]> };

/** `args` read against `options`; with `positionals` false, any argument that is not a flag is refused. */
export function parseFlags<O extends FlagOptions>(
  args: string[],
  options: O,
  positionals: boolean,
): { values: FlagValues<O>; positionals: string[] } {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    const forNode = Object.fromEntries(
      Object.entries(options).map(([name, { empty: _hint, count: _count, ...option }]) => [
        name,
        option,
      ]),
    );
    parsed = parseArgs({
      args,
      options: forNode,
      strict: true,
      allowPositionals: positionals,
      tokens: true,
    });
  } catch (err) {
    throw new UsageError(flagProblem(err as Error & { code?: string }, options, args));
  }
  // a flag that takes one value, given twice (`--port=0 … --port=1`), is a mistake: taking the last one
  // would run with a value the user may not have meant
  const given = new Map<string, string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    if (options[token.name]?.multiple) continue;
    const first = given.get(token.name);
    if (first !== undefined)
      throw new UsageError(
        `--${token.name} is given twice, as ${JSON.stringify(first)} and as ${JSON.stringify(token.value)}: give it once, with the value you mean`,
      );
    given.set(token.name, token.value);
  }
  // `--data ''` (or `--data=`, an unset shell variable) is a mistake, never "not given": a default in its
  // place would run somewhere the user did not ask for
  for (const [name, value] of Object.entries(parsed.values)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.includes(''))
      throw new UsageError(
        `--${name} is empty: give ${options[name]?.empty ?? `it a value (--${name} VALUE)`}, or leave the flag out`,
      );
  }
  return { values: parsed.values as FlagValues<O>, positionals: parsed.positionals };
}

function flagProblem(
  err: Error & { code?: string },
  options: FlagOptions,
  args: readonly string[],
): string {
  const first = err.message.split('\n')[0]!;
  // Node's own words ("argument is ambiguous", "argument missing") said as what to type instead
  const flag = /^Option '(?:-\w, )?--([^' ]+)/.exec(first)?.[1];
  const option = flag === undefined ? undefined : options[flag];
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag !== undefined && option) {
    const what = option.empty ?? `a value (--${flag} VALUE)`;
    if (/does not take an argument/.test(first))
      return `--${flag} takes no value: write --${flag} alone`;
    if (/ambiguous/.test(first)) {
      const at = args.findIndex((a) => a === `--${flag}` || a === `-${option.short ?? '\0'}`);
      const next = at >= 0 ? args[at + 1] : undefined;
      // a number below 0 is no value of a count: said at once, not after a retry with "="
      if (option.count && next !== undefined && /^-\d/.test(next))
        return `--${flag} "${next}" must be a whole number, 0 or more: give ${what}`;
      return `--${flag} needs a value, but ${next === undefined ? 'a flag' : `"${next}"`} follows it, which reads as a flag: give ${what}${next !== undefined && !next.startsWith('--') ? `; a value that starts with a dash goes after "=", --${flag}=${next}` : ''}`;
    }
    if (/argument missing/.test(first)) return `--${flag} needs a value: give ${what}`;
  }
  const names = Object.keys(options).map((name) => `--${name}`);
  const takes = names.join(', ');
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    // said in the tool's words, not Node's ("Unknown option '--frmat'. To specify a positional …")
    const given = /'(-[^']*)'/.exec(first)?.[1] ?? '';
    return `${given === '' ? 'an unknown flag' : `unknown flag ${given}`}: ${didYouMean(given, names)}the flags are ${takes}`;
  }
  if (err.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `${first.split('. ')[0]}: only flags are taken (${takes})`;
  return first;
}

/** The value of a flag with a fixed set of choices; `fallback` when the flag is absent. */
export function oneOf<T extends string>(
  flag: string,
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
  hint = '',
): T {
  if (value === undefined) return fallback;
  if ((choices as readonly string[]).includes(value)) return value as T;
  throw new UsageError(
    `--${flag} "${value}" is not one of ${choices.join(', ')}${hint ? `: ${hint}` : ''}`,
  );
}

/** The value of a flag that counts something: a whole number, 0 or more. */
export function wholeNumber(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value))
    throw new UsageError(`--${flag} "${value}" must be a whole number (0 for none)`);
  return Number(value);
}

/** A command's answer to a UsageError: its line and the usage on `write`, exit 2; any other error goes on. */
export function usageFailure(
  command: string,
  usage: string,
  err: unknown,
  write: (text: string) => void,
): number {
  if (!(err instanceof UsageError)) throw err;
  write(`search-sandbox ${command}: ${err.message}\n${usage}\n`);
  return 2;
}
