// How deep a JSON text nests, found without parsing it (a hostile body or feed line may nest thousands
// of levels; parsing, writing or showing such a value recurses once per level).

/** True when arrays/objects nest deeper than `max` (strings skipped); such a body would only hurt later readers. */
export function nestsDeeperThan(text: string, max: number): boolean {
  if (text.length <= 2 * max) return false; // cannot open `max` levels and close them
  if (!opensMoreThan(text, max)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * More than `max` `{` and `[` in all (those in strings too)? Only then can the text nest deeper than `max`.
 * Counted with indexOf, which skips the text between them natively: a beacon or a recorded event has a
 * dozen or two, so most texts are never scanned character by character.
 */
function opensMoreThan(text: string, max: number): boolean {
  let opened = 0;
  for (let i = text.indexOf('{'); i !== -1; i = text.indexOf('{', i + 1))
    if (++opened > max) return true;
  for (let i = text.indexOf('['); i !== -1; i = text.indexOf('[', i + 1))
    if (++opened > max) return true;
  return false;
}
