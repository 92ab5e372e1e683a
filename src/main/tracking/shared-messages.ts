// A finding's message is held as long as its page is kept, and a sandbox keeps 100,000 pages: a message
// found word for word on many pages (`10 of the 10 accepted events on this page were sent in production
// mode …`, 334 characters) is kept as one string. Values only: every message keeps its text.

/** Distinct messages kept for sharing at most; when full it starts again. */
const KEPT = 4_096;
let messages = new Map<string, string>();

export function sharedMessage(message: string): string {
  const held = messages.get(message);
  if (held !== undefined) return held;
  if (messages.size >= KEPT) messages = new Map();
  messages.set(message, message);
  return message;
}
