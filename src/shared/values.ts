// Values of unknown shape (parsed JSON bodies, config and settings files, upstream answers): a plain
// object or not. One test for every reader in the sandbox, main process and package alike.

/** A plain object (not null, not an array): its fields can be read by name. */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
