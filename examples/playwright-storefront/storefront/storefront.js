/* global window, document, IntersectionObserver, URLSearchParams */
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

function onVisible(entries) {
  const results = [];
  for (const entry of entries) {
    const tile = entry.target;
    if (!entry.isIntersecting || tile.dataset.responseId !== current.responseId) continue;
    if (current.impressed.has(tile.dataset.uid)) continue;
    current.impressed.add(tile.dataset.uid);
    results.push(JSON.parse(tile.dataset.item));
  }
  // as the provider's client does: a tile is impressed once it has been visible for a second
  const { responseId } = current;
  if (results.length)
    window.setTimeout(
      () => beacon.events.search.impression({ data: { responseId, results, banners: [] } }),
      1000,
    );
}

function show(response) {
  const responseId = response.tracking.responseId;
  current = { responseId, impressed: new Set() };
  observer.disconnect();
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
    const [, response] = await client.search({ search: { query: { string: q } } });
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
