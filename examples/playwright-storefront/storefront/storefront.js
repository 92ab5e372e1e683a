/* global window, document, IntersectionObserver, URLSearchParams, setTimeout, clearTimeout */
// A small production storefront: searches with the provider's Snap client and tracks with its beacon
// client, both on their default production origins. Nothing here knows about the sandbox: in the tests,
// search-sandbox/playwright routes those hosts to it.
import { Client } from '@searchspring/snap-client';
import { Beacon } from '@athoscommerce/beacon';

const siteId = 'demo42';
const client = new Client({ siteId });
const beacon = new Beacon({ siteId });

// The planted integration bug of tests/planted-bug.spec.js: results shown without the render event.
const plantedBug = window.__plantedBug || null;

let current = null; // { responseId, impressed: Set }
const observer = new IntersectionObserver(onVisible, { threshold: 0.7 });

function item(result) {
  // what the Snap client itself reports for a product tile
  const sku = result.mappings.core.sku;
  return { type: 'product', uid: result.id, parentId: result.id, ...(sku ? { sku } : {}) };
}

// As the provider's own impression observer does: a tile is impressed once 70% of it has been visible
// for a second (a tile that leaves the viewport before then is not), once per response.
const waiting = new Map(); // tile → its timer

function onVisible(entries) {
  for (const entry of entries) {
    const tile = entry.target;
    if (!entry.isIntersecting) {
      clearTimeout(waiting.get(tile));
      waiting.delete(tile);
      continue;
    }
    if (tile.dataset.responseId !== current.responseId || waiting.has(tile)) continue;
    if (current.impressed.has(tile.dataset.uid)) continue;
    waiting.set(
      tile,
      setTimeout(() => impress(tile), 1000),
    );
  }
}

function impress(tile) {
  waiting.delete(tile);
  if (tile.dataset.responseId !== current.responseId || current.impressed.has(tile.dataset.uid))
    return;
  current.impressed.add(tile.dataset.uid);
  // the beacon client queues impressions of one response and sends them together
  beacon.events.search.impression({
    data: { responseId: current.responseId, results: [JSON.parse(tile.dataset.item)], banners: [] },
  });
}

function show(response) {
  const responseId = response.tracking.responseId;
  current = { responseId, impressed: new Set() };
  observer.disconnect();
  for (const timer of waiting.values()) clearTimeout(timer);
  waiting.clear();
  const tiles = response.results.map((result) => {
    const li = document.createElement('li');
    const tracked = item(result);
    Object.assign(li.dataset, { uid: tracked.uid, item: JSON.stringify(tracked), responseId });
    li.textContent = `${result.mappings.core.name} — ${result.mappings.core.price}`;
    li.addEventListener('click', () =>
      beacon.events.search.clickThrough({ data: { responseId, results: [tracked] } }),
    );
    return li;
  });
  document.getElementById('results').replaceChildren(...tiles);
  document.getElementById('status').textContent = `${tiles.length} results`;
  if (plantedBug !== 'no-render') beacon.events.search.render({ data: { responseId } });
  for (const tile of tiles) observer.observe(tile);
}

async function search(q) {
  try {
    // as Snap's SearchController asks: with the tracker's context, so that the service ties the search to
    // this shopper, session and page load
    const { userId, sessionId, pageLoadId } = beacon.getContext();
    const tracking = { userId, sessionId, pageLoadId, domain: window.location.href };
    const [, response] = await client.search({ search: { query: { string: q } }, tracking });
    show(response);
  } catch (err) {
    document.getElementById('status').textContent = `search failed: ${String(err?.err ?? err)}`;
  }
}

document.getElementById('search-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  search(document.getElementById('q').value);
});
const q = new URLSearchParams(window.location.search).get('q');
if (q) {
  document.getElementById('q').value = q;
  search(q);
}
