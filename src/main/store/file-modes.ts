// The data directory holds shoppers' ids and the pages they visited: it is created 0700 and every file in
// it 0600, whatever the process umask (the umask can only take bits away from these).

/** Mode of every directory the sandbox creates for its data. */
export const PRIVATE_DIR = 0o700;
/** Mode of every file the sandbox writes into its data directory. */
export const PRIVATE_FILE = 0o600;
