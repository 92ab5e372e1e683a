// Why the companion search and recommend APIs refuse a request, one class per reason, named as the
// `error` of the provider's answer body (`code`). Which HTTP status each gets is the HTTP layer's table
// (http/domain-errors.ts).

export abstract class SearchRefused extends Error {
  /** the `error` of the answer's body, in the provider's words: each class is named as the provider names it */
  get code(): string {
    return this.name;
  }
}

/** A parameter or body field with a value the API does not take. */
export class InvalidParameter extends SearchRefused {
  override readonly name = 'InvalidParameter';
}

/** A required parameter or body field that is missing. */
export class MissingParameter extends SearchRefused {
  override readonly name = 'MissingParameter';
}

/** A body that is not the JSON object the API takes. */
export class InvalidBody extends SearchRefused {
  override readonly name = 'InvalidBody';
}

/** A siteId that is not an account of this sandbox. */
export class UnknownSite extends SearchRefused {
  override readonly name = 'UnknownSite';
}

/** A site with no indexed catalog to search yet. */
export class NoCatalog extends SearchRefused {
  override readonly name = 'NoCatalog';
}

/** A recommendation profile tag the site does not declare. */
export class ProfileNotFound extends SearchRefused {
  override readonly name = 'ProfileNotFound';
}
