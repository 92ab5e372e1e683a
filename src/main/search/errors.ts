// Why the companion search and recommend APIs refuse a request, one class per reason; `code` is the
// `error` of the provider's answer body. Which HTTP status each gets is the HTTP layer's table
// (http/domain-errors.ts).

export abstract class SearchRefused extends Error {
  /** the `error` of the answer's body, in the provider's words */
  abstract readonly code: string;
}

/** A parameter or body field with a value the API does not take. */
export class InvalidParameter extends SearchRefused {
  override readonly name = 'InvalidParameter';
  readonly code = 'InvalidParameter';
}

/** A required parameter or body field that is missing. */
export class MissingParameter extends SearchRefused {
  override readonly name = 'MissingParameter';
  readonly code = 'MissingParameter';
}

/** A body that is not the JSON object the API takes. */
export class InvalidBody extends SearchRefused {
  override readonly name = 'InvalidBody';
  readonly code = 'InvalidBody';
}

/** A siteId that is not an account of this sandbox. */
export class UnknownSite extends SearchRefused {
  override readonly name = 'UnknownSite';
  readonly code = 'UnknownSite';
}

/** A site with no indexed catalog to search yet. */
export class NoCatalog extends SearchRefused {
  override readonly name = 'NoCatalog';
  readonly code = 'NoCatalog';
}

/** A recommendation profile tag the site does not declare. */
export class ProfileNotFound extends SearchRefused {
  override readonly name = 'ProfileNotFound';
  readonly code = 'ProfileNotFound';
}
