// What an identity rule forgives around the moment the client first stored a value (a shopper id, an
// attribution): events of the same page created up to this long after the first that carried it may have
// been created before it was stored, and an instant is all their order says.
export const SAME_MOMENT_MS = 1_000;
