// Reading a JSON text without parsing all of it: a rejected body kept as text (too deep, or too bulky to
// hold as parsed values) still tells which page it belongs to, from its top-level `context` member alone.

/** Members bigger than this are not parsed out of a text (a context is a few hundred bytes). */
const MAX_MEMBER = 65_536;

/**
 * The value of the top-level member `key` of the JSON object `text`, parsed; undefined when the text is
 * not an object, has no such member, or the member is over MAX_MEMBER characters or is not valid JSON.
 * One pass over the characters, no allocation but the member's own text.
 */
export function topLevelMember(text: string, key: string): unknown {
  let i = text.indexOf('{');
  if (i < 0 || text.slice(0, i).trim() !== '') return undefined;
  const quoted = JSON.stringify(key);
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  let valueStart = -1;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) {
        inString = false;
        // a key at depth 1 followed by a colon: is it ours?
        if (depth === 1 && valueStart < 0 && text.slice(stringStart, i + 1) === quoted) {
          const colon = text.indexOf(':', i + 1);
          if (colon > 0 && text.slice(i + 1, colon).trim() === '') {
            valueStart = colon + 1;
            i = colon;
          }
        }
      }
      continue;
    }
    if (c === 0x22) {
      inString = true;
      stringStart = i;
    } else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return valueStart >= 0 ? parseMember(text, valueStart, i) : undefined;
    } else if (c === 0x2c && depth === 1 && valueStart >= 0)
      return parseMember(text, valueStart, i);
    if (valueStart >= 0 && i - valueStart > MAX_MEMBER) return undefined;
  }
  return undefined;
}

function parseMember(text: string, from: number, to: number): unknown {
  if (to - from > MAX_MEMBER) return undefined;
  try {
    return JSON.parse(text.slice(from, to));
  } catch {
    return undefined;
  }
}
