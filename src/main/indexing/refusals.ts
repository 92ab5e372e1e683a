// Why a bulk index request is refused, one class per reason. The domain says what is wrong in the
// provider's words; which HTTP status each reason gets is the HTTP layer's table (http/domain-errors.ts).

/** A bulk index request that is not queued; `workflow` is the scorecard's first finding, when it has one. */
export abstract class IndexRequestRefused extends Error {
  /** set once the request reached a feed and was scored */
  workflow: string | null = null;
}

/** feedId missing or not a number, or requestedBy not an e-mail address. */
export class BadIndexRequest extends IndexRequestRefused {
  override readonly name = 'BadIndexRequest';
}

/** The account has no feed with this id. */
export class UnknownFeed extends IndexRequestRefused {
  override readonly name = 'UnknownFeed';
}

/** The feed's interval is Never: it is not indexed, by request or by schedule. */
export class FeedNeverIndexed extends IndexRequestRefused {
  override readonly name = 'FeedNeverIndexed';
}

/** The feed is still queued (waiting, paused, regenerating): nothing is queued twice. */
export class FeedAlreadyQueued extends IndexRequestRefused {
  override readonly name = 'FeedAlreadyQueued';
}

/** A PUT for a feed that takes uploaded files, before any file was uploaded. */
export class NoUploadYet extends IndexRequestRefused {
  override readonly name = 'NoUploadYet';
}

/** A re-index inside the hour after the last accepted one. */
export class ReindexTooSoon extends IndexRequestRefused {
  override readonly name = 'ReindexTooSoon';
  constructor(
    message: string,
    /** whole seconds until the hour is over */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}
