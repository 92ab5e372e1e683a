// Code that runs inside the browser page. Kept as source text because the tests compile without the DOM
// library (the Node project's types), and each snippet is small enough to read as it is.

/** Resolves once web fonts are loaded and two frames were painted (layout has settled). */
export const SETTLE =
  'document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))';

/** Visible interactive elements without an accessible name (label, aria-label, title or text), as HTML. */
export const UNNAMED_CONTROLS = `(() => {
  const named = (el) => {
    if (el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || el.getAttribute('title')) return true;
    if (el.labels && el.labels.length) return true;
    return (el.textContent || '').trim().length > 0;
  };
  const visible = (el) => el.offsetParent !== null || el.closest('svg') !== null;
  return [...document.querySelectorAll('button, a[href], input:not([type=hidden]), select, textarea, [role=button]')]
    .filter((el) => visible(el) && !named(el))
    .map((el) => el.outerHTML.slice(0, 120));
})()`;

export const FOCUSED_TESTID =
  "document.activeElement && document.activeElement.getAttribute('data-testid')";
export const FOCUSED_EVENT_ID =
  "document.activeElement && document.activeElement.getAttribute('data-event-id')";
export const FOCUSED_PAGE_LOAD_ID =
  "document.activeElement && document.activeElement.getAttribute('data-page-load-id')";
/** Scrolling areas (and the document) wider than the window: each as "class: scrollWidth > clientWidth". */
export const SIDEWAYS_OVERFLOW = `(() => {
  const areas = [document.documentElement, ...document.querySelectorAll('.page-scroll, .detail-scroll, .list-scroll, .inspector-body')];
  return areas
    .filter((el) => el.scrollWidth > el.clientWidth + 1)
    .map((el) => (el.className || el.tagName) + ': ' + el.scrollWidth + ' > ' + el.clientWidth);
})()`;
export const BODY_BACKGROUND = 'getComputedStyle(document.body).backgroundColor';
/** A flag on window that only survives as long as the page is not reloaded. */
export const MARK_PAGE = 'window.__notReloaded = true';
export const PAGE_MARKED = 'window.__notReloaded === true';
export const READ_CLIPBOARD = 'navigator.clipboard.readText()';

/** Is the first element `selector` matches in view, its top in the upper half of the window? */
export const inUpperHalf = (selector: string) => `(() => {
  const el = document.querySelector(${JSON.stringify(selector)});
  if (!el) return false;
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.top < window.innerHeight / 2;
})()`;

/** Text cut short inside what `selector` matches: boxes narrower than their text, as that text. */
export const cutText = (selector: string) => `(() =>
  [...document.querySelectorAll(${JSON.stringify(selector)})]
    .flatMap((root) => [root, ...root.querySelectorAll('*')])
    .filter((el) => getComputedStyle(el).display !== 'inline' && el.scrollWidth > el.clientWidth + 1)
    .map((el) => (el.textContent || '').trim().slice(0, 80)))()`;

/** The animations running on the page, each as "name × iterations" (Infinity: one that never ends). */
export const RUNNING_ANIMATIONS = `document.getAnimations().map((a) => a.animationName + ' × ' + a.effect.getTiming().iterations)`;
