/* global window, document, IntersectionObserver, URLSearchParams */
// A small storefront for the end-to-end tests (not shipped): searches through the provider's Snap client
// pointed at the sandbox, renders results and merchandising, and tracks with the provider's beacon client —
// render, impressions as tiles scroll into view, clickthroughs, redirects. `?break=` plants one defect.
import { Client } from '@searchspring/snap-client';
import { Beacon } from '@athoscommerce/beacon';

const params = new URLSearchParams(window.location.search);
const sandbox = params.get('sandbox');
const siteId = params.get('siteId') || 'demo42';
// uid: report a variant's sku as uid · banner: inline banner in data.banners · stale: keep the first responseId
const broken = params.get('break') || '';

const client = new Client(
  { siteId },
  { mode: 'development', search: { origin: sandbox }, meta: { origin: sandbox } },
);
const beacon = new Beacon(
  { siteId },
  {
    mode: 'development',
    requesters: {
      beacon: { origin: `${sandbox}/beacon/v2` },
      personalization: { origin: sandbox },
    },
  },
);

// what the page reported, for the test to wait on (uids per kind, redirects)
const state = { searches: 0, impressed: [], clicked: [], redirected: null, error: null };
window.__storefront = state;

let current = null; // { responseId, seen: Set, pending: {results, banners}, timer }
let firstResponseId = null;
const observer = new IntersectionObserver(onVisible, { threshold: 0.5 });

function productItem(result) {
  const core = result.mappings.core;
  if (broken === 'uid') {
    const variantSku = result.children[0] && result.children[0].attributes.sku;
    return {
      type: 'product',
      uid: variantSku || core.sku || result.id,
      parentId: result.id,
      sku: core.sku,
    };
  }
  // what the Snap client itself sends: uid = parentId = the result's id
  return {
    type: 'product',
    uid: result.id,
    parentId: result.id,
    ...(core.sku ? { sku: core.sku } : {}),
  };
}

function trackedId(responseId) {
  return broken === 'stale' && firstResponseId ? firstResponseId : responseId;
}

function flushImpressions(c) {
  c.timer = null;
  // the results were replaced before the tiles had been visible for a second: nothing was seen
  if (c !== current) return;
  state.impressed.push(...c.pending.uids);
  const { results, banners } = c.pending;
  c.pending = { results: [], banners: [], uids: [] };
  if (results.length === 0 && banners.length === 0) return;
  beacon.events.search.impression({ data: { responseId: c.trackedId, results, banners } });
}

function onVisible(entries) {
  for (const entry of entries) {
    if (!entry.isIntersecting || !current) continue;
    const el = entry.target;
    const key = `${el.dataset.kind}:${el.dataset.uid}`;
    if (el.dataset.responseId !== current.responseId || current.seen.has(key)) continue;
    current.seen.add(key);
    current.pending.uids.push(el.dataset.uid);
    if (el.dataset.kind === 'product') current.pending.results.push(JSON.parse(el.dataset.item));
    else if (el.dataset.kind === 'inline' && broken !== 'banner')
      current.pending.results.push({ type: 'banner', uid: el.dataset.uid });
    else current.pending.banners.push({ uid: el.dataset.uid });
    // as the provider's client: a tile is impressed once it has been visible for a second
    const c = current;
    c.timer ??= window.setTimeout(() => flushImpressions(c), 1_000);
  }
}

function bannerUid(html) {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const el = holder.querySelector('[data-banner-id]');
  return { el: holder.firstElementChild, uid: el && el.getAttribute('data-banner-id') };
}

function render(response) {
  const responseId = response.tracking.responseId;
  firstResponseId ??= responseId;
  current = {
    responseId,
    trackedId: trackedId(responseId),
    seen: new Set(),
    pending: { results: [], banners: [], uids: [] },
    timer: null,
  };
  observer.disconnect();
  for (const slot of ['header', 'banner', 'left', 'footer']) {
    const box = document.getElementById(`slot-${slot}`);
    box.innerHTML = '';
    for (const html of response.merchandising.content[slot] || []) {
      const { el, uid } = bannerUid(html);
      Object.assign(el.dataset, { kind: 'slot', uid, responseId });
      box.append(el);
      observer.observe(el);
    }
  }
  const tiles = response.results.map((result) => {
    const li = document.createElement('li');
    const item = productItem(result);
    Object.assign(li.dataset, {
      kind: 'product',
      uid: item.uid,
      item: JSON.stringify(item),
      responseId,
    });
    li.textContent = `${result.mappings.core.name} — ${result.mappings.core.price}`;
    li.addEventListener('click', () => {
      state.clicked.push(item.uid);
      beacon.events.search.clickThrough({
        data: { responseId: current.trackedId, results: [item] },
      });
    });
    return li;
  });
  for (const inline of response.merchandising.content.inline || []) {
    const { el, uid } = bannerUid(inline.value);
    const li = document.createElement('li');
    li.append(el);
    Object.assign(li.dataset, { kind: 'inline', uid, responseId });
    tiles.splice(inline.config.position.index, 0, li);
  }
  const list = document.getElementById('results');
  list.replaceChildren(...tiles);
  beacon.events.search.render({ data: { responseId: current.trackedId } });
  for (const tile of tiles) observer.observe(tile);
}

async function search(q) {
  try {
    const [, response] = await client.search({
      search: { query: { string: q } },
      pagination: { pageSize: 6 },
    });
    if (response.merchandising.redirect) {
      state.redirected = response.merchandising.redirect;
      beacon.events.search.redirect({
        data: {
          responseId: response.tracking.responseId,
          redirect: response.merchandising.redirect,
        },
      });
      return;
    }
    render(response);
    state.searches++;
  } catch (err) {
    state.error = String((err && err.err) || err);
  }
}

document.getElementById('search-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  search(document.getElementById('q').value);
});
document.getElementById('q').value = params.get('q') || '';
if (params.get('q')) search(params.get('q'));
