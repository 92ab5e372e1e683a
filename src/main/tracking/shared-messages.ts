// A finding's message is held as long as its page is kept, and a sandbox keeps 100,000 pages: a message
// found word for word on many pages (`10 of the 10 accepted events on this page were sent in production
// mode …`, 334 characters) is kept as one string. Values only: every message keeps its text.
import { StringPool } from '../store/shared-strings';

/** at most 4,096 distinct messages kept for sharing; when full it starts again */
const messages = new StringPool(4_096);

export function sharedMessage(message: string): string {
  return messages.share(message);
}
