// How long after a product clickthrough the page it opens is taken for the clicked product's page
// (`pageview-not-clicked`). The rule reads the visit's clicks, and the starts of its pages, from this long
// before a product view; `check`, which lets go of what no page left to judge can read, keeps them that long.
export const CLICK_FOLLOW_MS = 10_000;
