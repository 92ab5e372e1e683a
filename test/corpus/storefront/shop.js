/* global window, document, IntersectionObserver, sessionStorage, history, Option, URL */
// The fault-corpus storefront (not shipped): searches with the provider's Snap client against the sandbox's
// companion search API and tracks with the provider's beacon client the way the provider's Snap controller
// does (as its source shows): a render after every search (a cached response too), a tile impressed once per
// responseId when 70% of it was visible for 1 s, clickthroughs at once, quick add, merchandising redirects,
// infinite scroll and SPA filters, sort and pagination (Snap's URL: `?q=&page=` and `#/filter:…/sort:…`).
// `category=<name>` makes the page a category page (Snap's controller with page type category: category.json
// with a background filter, `category/*` events of the same shapes). With `autocomplete=1` (a storefront with
// the autocomplete dropdown configured; the search journeys run without it) typing in the search box asks the
// client's autocomplete() (suggest, then autocomplete.json) and tracks the dropdown the way Snap's
// AutocompleteController does: `autocomplete/*` events with the autocomplete response's responseId, no render
// for a repeated response (the same responseId as the one shown).
// `fault=<id>` plants one storefront bug (see test/corpus/journeys.ts); without it the traffic is correct.
import { Client } from '@searchspring/snap-client';
import { Beacon } from '@athoscommerce/beacon';

const CONFIG_KEY = 'corpus-config';
const here = new URL(window.location.href);
// The first page of a journey carries the settings; the visit keeps them (as a storefront keeps its build).
const cfg = JSON.parse(sessionStorage.getItem(CONFIG_KEY) || '{}');
for (const k of [
  'sandbox',
  'siteId',
  'fault',
  'mode',
  'scroll',
  'pageSize',
  'dense',
  'recommend',
  'autocomplete',
]) {
  const v = here.searchParams.get(k);
  if (v !== null) cfg[k] = v;
}
sessionStorage.setItem(CONFIG_KEY, JSON.stringify(cfg));
const fault = cfg.fault || '';
const siteId = cfg.siteId || 'demo42';
const mode = cfg.mode || 'development';
const pageSize = Number(cfg.pageSize || 8);
const VISIBLE_MS = 1000; // Snap's createImpressionObserver: 70% visible for 1 s

// Snap's createImpressionObserver: a tile is impressed once it has stayed 70% visible for VISIBLE_MS;
// leaving the viewport earlier cancels it. `timers` stays the caller's, so it can clear them on a new view.
function impressionObserver(timers, impress, off = () => false) {
  return new IntersectionObserver(
    (entries) => {
      if (off()) return;
      for (const entry of entries) {
        const el = entry.target;
        if (entry.isIntersecting && entry.intersectionRatio >= 0.7) {
          if (!timers.has(el))
            timers.set(
              el,
              window.setTimeout(() => (timers.delete(el), impress(el)), VISIBLE_MS),
            );
        } else {
          window.clearTimeout(timers.get(el));
          timers.delete(el);
        }
      }
    },
    { threshold: 0.7 },
  );
}

// What the page did, for the journey to wait on: beacon requests answered, searches, redirects, errors.
const state = {
  searches: 0,
  sent: [],
  redirected: null,
  error: null,
  responseIds: [],
  autocompletes: 0,
  acResponseId: null,
  widgets: 0,
};
window.__shop = state;

/** The beacon client's fetch: context-level faults are planted here; every answered request is noted. */
async function beaconFetch(input, init = {}) {
  let body = init.body;
  if (typeof body === 'string' && body.startsWith('{'))
    body = JSON.stringify(plant(JSON.parse(body)));
  const res = await window.fetch(input, { ...init, body });
  const m = /\/beacon\/v2\/[^/]+\/([^/]+)\/([^/?]+)/.exec(String(input));
  if (m) {
    const b = typeof body === 'string' && body.startsWith('{') ? JSON.parse(body) : {};
    const d = b.data || {};
    const uids = [...(d.results || []), ...(d.banners || [])].map((x) => x.uid);
    state.sent.push({
      category: m[1],
      event: m[2],
      status: res.status,
      uids,
      responseId: d.responseId,
    });
  }
  return res;
}

function plant(body) {
  const c = body.context;
  if (!c) return body;
  const id = () => Math.random().toString(36).slice(2) + Date.now().toString(36);
  if (fault === 'session-per-event') c.sessionId = id();
  if (fault === 'pageloadid-per-event') c.pageLoadId = id();
  if (fault === 'timestamp-epoch') c.timestamp = Date.parse(c.timestamp);
  if (fault === 'timestamp-no-offset') c.timestamp = c.timestamp.replace(/Z$/, '');
  // local wall-clock time labelled as UTC (a hand-made formatter that forgot the offset)
  if (fault === 'timestamp-local-clock')
    c.timestamp = new Date(Date.now() - new Date().getTimezoneOffset() * 60_000).toISOString();
  return body;
}

const sandbox = cfg.sandbox;
// dev-without-flag: a development build whose tracker was left in production mode; search-without-test: the reverse
const clientMode =
  fault === 'search-without-test'
    ? 'production'
    : fault === 'dev-without-flag'
      ? 'development'
      : mode;
const beaconMode =
  fault === 'search-without-test'
    ? 'development'
    : fault === 'dev-without-flag'
      ? 'production'
      : mode;
const client = new Client(
  { siteId },
  {
    mode: clientMode,
    search: { origin: sandbox },
    meta: { origin: sandbox },
    autocomplete: { origin: sandbox },
    suggest: { origin: sandbox },
    // the sandbox's companion recommend API (profile.json, POST /v1/recommend)
    recommend: { origin: cfg.recommend },
  },
);
const beacon = new Beacon(
  { siteId },
  {
    mode: beaconMode,
    apis: { fetch: beaconFetch },
    requesters: {
      beacon: {
        origin: `${sandbox}/beacon/v2`,
        // json-content-type: a storefront "fixing" the content type; the browser then preflights every beacon
        ...(fault === 'json-content-type' && { headers: { 'Content-Type': 'application/json' } }),
      },
      personalization: { origin: sandbox },
    },
  },
);
// Category pages run Snap's search controller with page type category: the same events, sent to category/*.
const category = here.searchParams.get('category');
const pageKind = category ? 'category' : 'search';
const track = beacon.events[pageKind];

if (document.body.dataset.page === 'product') productPage();
else searchPage();

// ---------- product page ----------
function productPage() {
  const uid = here.searchParams.get('id');
  document.getElementById('name').textContent = `Product ${uid}`;
  document.getElementById('add').addEventListener('click', () => {
    // The right thing on a product page sends nothing on search/*; cart-other-page-id reuses the search's id
    if (fault !== 'cart-other-page-id') return;
    const responseId = sessionStorage.getItem('corpus-last-responseId');
    track.addToCart({
      data: { responseId, results: [{ parentId: '', uid, sku: uid, qty: 1, price: 10 }] },
    });
  });
  if (cfg.recommend) widgets(uid);
}

// Two recommendation widgets, tracked as Snap's RecommendationController does (as its source shows): one
// controller per profile tag; after each recommend response one recommendations/render {responseId, tag};
// a tile impressed once per uid per responseId when 70% of it was visible for 1 s, impressions and clicks
// carrying the widget's tag and its response's responseId. `rec-wrong-tag`: the second widget's impressions
// carry the first widget's tag (a shared tracking helper configured once per page). `rec-tile-not-served`: the
// second widget shows the product of the page as one more tile (a storefront padding its widget with a
// hard-coded tile), impressed with the widget's responseId though the response never served it.
function widgets(product) {
  const tags = ['similar', 'more-like-this'];
  const rec = beacon.events.recommendations;
  const impressed = new Set();
  const timers = new Map();
  const observer = impressionObserver(timers, impress);
  function impress(el) {
    const { responseId, tag, uid } = el.dataset;
    const key = `${responseId}:${uid}`;
    if (impressed.has(key)) return;
    impressed.add(key);
    rec.impression({
      data: {
        responseId,
        tag: fault === 'rec-wrong-tag' ? tags[0] : tag,
        results: [JSON.parse(el.dataset.item)],
        banners: [],
      },
    });
  }
  function recTile(result, responseId, tag) {
    const li = document.createElement('li');
    const core = result.mappings.core;
    // as Snap's RecommendationController reports a tile: parentId from the result's core mappings, '' without
    const item = {
      type: 'product',
      uid: result.id,
      parentId: core.parentId ? String(core.parentId) : '',
      sku: core.sku || '',
    };
    Object.assign(li.dataset, { uid: item.uid, item: JSON.stringify(item), responseId, tag });
    const a = document.createElement('a');
    a.href = `./product.html?id=${encodeURIComponent(result.id)}`;
    a.textContent = `${core.name} — ${core.price}`;
    a.addEventListener('click', async (ev) => {
      ev.preventDefault();
      rec.clickThrough({ data: { responseId, tag, results: [item] } });
      await until(() => state.sent.some((s) => s.event === 'clickthrough'));
      window.location.href = a.href;
    });
    li.append(a);
    return li;
  }
  for (const tag of tags) {
    client
      .recommend({ tag, products: [product], batched: true, limit: 4 })
      .then((response) => {
        const responseId = response.responseId;
        const results = [...response.results];
        if (fault === 'rec-tile-not-served' && tag === tags[1])
          results.push({
            id: product,
            mappings: { core: { name: `Product ${product}`, price: 0 } },
          });
        const tiles = results.map((r) => recTile(r, responseId, tag));
        document.querySelector(`#rec-${tag} ul`).replaceChildren(...tiles);
        rec.render({ data: { responseId, tag } });
        for (const el of tiles) observer.observe(el);
        state.widgets++;
      })
      .catch((err) => {
        state.error = String((err && err.err) || err);
      });
  }
}

// ---------- search page ----------
function searchPage() {
  const list = document.getElementById('results');
  if (cfg.dense) list.classList.add('dense');
  let view = null; // { first: responseId of the view's page 1, page, pages, last: last response }
  const impressed = new Map(); // responseId → keys impressed (Snap: once per uid per responseId)
  const timers = new Map();
  const observer = impressionObserver(
    timers,
    impress,
    () => fault === 'impression-never' || fault === 'impress-all-at-load',
  );

  function readUrl() {
    const u = new URL(window.location.href);
    const filters = [];
    let sort = null;
    if (u.hash.startsWith('#/')) {
      for (const seg of u.hash.slice(2).split('/')) {
        const [name, field, value] = seg.split(':').map(decodeURIComponent);
        if (name === 'filter') filters.push({ type: 'value', field, value });
        if (name === 'sort') sort = { field, direction: value };
      }
    }
    return {
      q: u.searchParams.get('q') || '',
      page: Number(u.searchParams.get('page') || 1),
      filters,
      sort,
    };
  }

  function hrefFor(p) {
    const u = new URL(window.location.href);
    if (p.q || !category) u.searchParams.set('q', p.q);
    if (p.page > 1) u.searchParams.set('page', String(p.page));
    else u.searchParams.delete('page');
    const segs = [
      ...p.filters.map((f) => `filter:${f.field}:${f.value}`),
      ...(p.sort ? [`sort:${p.sort.field}:${p.sort.direction}`] : []),
    ];
    u.hash = segs.length ? `/${segs.join('/')}` : '';
    return u.href;
  }

  /** SPA navigation, as Snap's UrlManager does: push the URL, then search. */
  function go(p) {
    history.pushState(null, '', hrefFor(p));
    search(p);
  }
  window.addEventListener('popstate', () => search(readUrl()));

  function trackedId(responseId) {
    if (fault === 'stale-spa' || fault === 'stale-multipage') {
      const first = sessionStorage.getItem('corpus-first-responseId');
      if (first) return first;
      sessionStorage.setItem('corpus-first-responseId', responseId);
    }
    if (fault === 'unknown-responseid') return 'storefront-made-id-1';
    // the id of the last autocomplete response (the dropdown typed into) kept for the search it led to
    if (fault === 'autocomplete-id' && state.acResponseId) return state.acResponseId;
    if (fault === 'infinite-page1-id' && view) return view.first;
    return responseId;
  }

  function productItem(result) {
    const core = result.mappings.core;
    const item = {
      type: 'product',
      uid: result.id,
      parentId: result.children.length ? result.id : '',
      sku: core.sku || '',
    };
    if (fault === 'sku-as-uid') item.uid = core.sku || result.id;
    return item;
  }

  function cartItem(result, variant) {
    const core = result.mappings.core;
    const price = Number(core.price) || 0;
    const item = variant
      ? {
          parentId: result.id,
          uid: String(variant.uid),
          sku: String(variant.sku || ''),
          qty: 1,
          price,
        }
      : {
          parentId: result.children.length ? result.id : '',
          uid: result.id,
          sku: core.sku || '',
          qty: 1,
          price,
        };
    if (fault === 'cart-price-string') item.price = core.price.toFixed(2);
    if (fault === 'cart-no-qty') delete item.qty;
    return item;
  }

  function impress(el) {
    const responseId = el.dataset.responseId;
    const key = `${el.dataset.kind}:${el.dataset.uid}`;
    let seen = impressed.get(responseId);
    if (!seen) impressed.set(responseId, (seen = new Set()));
    if (seen.has(key) && fault !== 'impress-every-scroll') return;
    seen.add(key);
    const tracked = trackedId(responseId);
    const kind = el.dataset.kind;
    if (el.dataset.track === 'autocomplete') {
      beacon.events.autocomplete.impression({
        data: { responseId, results: [JSON.parse(el.dataset.item)], banners: [] },
      });
    } else if (kind === 'product') {
      track.impression({
        data: { responseId: tracked, results: [JSON.parse(el.dataset.item)], banners: [] },
      });
    } else if (kind === 'inline') {
      const entry = { type: 'banner', uid: el.dataset.uid };
      track.impression({
        data:
          fault === 'inline-in-banners'
            ? { responseId: tracked, results: [], banners: [{ uid: entry.uid }] }
            : { responseId: tracked, results: [entry], banners: [] },
      });
    } else {
      track.impression({
        data:
          fault === 'slot-as-result'
            ? {
                responseId: tracked,
                results: [{ type: 'banner', uid: el.dataset.uid }],
                banners: [],
              }
            : { responseId: tracked, results: [], banners: [{ uid: el.dataset.uid }] },
      });
    }
  }

  function bannerEl(html, kind, responseId) {
    const holder = document.createElement('div');
    holder.innerHTML = html;
    const withId = holder.querySelector('[data-banner-id]');
    const el = holder.firstElementChild || holder;
    const uid = withId && withId.getAttribute('data-banner-id');
    Object.assign(el.dataset, { kind, uid, responseId });
    el.addEventListener('click', () => {
      if (kind === 'inline')
        track.clickThrough({
          data: { responseId: trackedId(responseId), results: [{ type: 'banner', uid }] },
        });
      else track.clickThrough({ data: { responseId: trackedId(responseId), banners: [{ uid }] } });
    });
    return el;
  }

  function tile(result, responseId) {
    const li = document.createElement('li');
    const item = productItem(result);
    Object.assign(li.dataset, {
      kind: 'product',
      uid: item.uid,
      item: JSON.stringify(item),
      responseId,
    });
    const a = document.createElement('a');
    a.href = `./product.html?id=${encodeURIComponent(result.id)}`;
    a.textContent = `${result.mappings.core.name} — ${result.mappings.core.price}`;
    a.addEventListener('click', async (ev) => {
      ev.preventDefault();
      const data = { responseId: trackedId(responseId), results: [item] };
      if (fault === 'click-results-and-banners') data.banners = [{ uid: item.uid }];
      track.clickThrough({ data });
      sessionStorage.setItem('corpus-last-responseId', responseId);
      // Snap navigates at once (keepalive keeps the click in production); the recording waits for the click
      // to be answered, so journeys are deterministic. Queued impressions are lost either way.
      await until(() => state.sent.some((s) => s.event === 'clickthrough'));
      window.location.href = a.href;
    });
    li.append(a);
    const variants = result.children.map((c) => c.attributes);
    let select = null;
    if (variants.length) {
      select = document.createElement('select');
      select.setAttribute('aria-label', 'Variant');
      for (const v of variants)
        select.append(new Option(`${v.color || ''} ${v.size || ''}`.trim(), String(v.uid)));
      li.append(select);
    }
    const add = document.createElement('button');
    add.textContent = 'Quick add';
    add.className = 'quick-add';
    add.addEventListener('click', () => {
      const variant = select ? variants.find((v) => String(v.uid) === select.value) : null;
      track.addToCart({
        data: { responseId: trackedId(responseId), results: [cartItem(result, variant)] },
      });
    });
    li.append(add);
    return li;
  }

  function renderResponse(response, { append }) {
    const responseId = response.tracking.responseId;
    if (!append) {
      observer.disconnect();
      for (const t of timers.values()) window.clearTimeout(t);
      timers.clear();
      // Snap resets the impression flags for a non-infinite request: a cached response is impressed again
      impressed.clear();
      for (const slot of ['header', 'banner', 'left', 'footer']) {
        const box = document.getElementById(`slot-${slot}`);
        box.replaceChildren(
          ...(response.merchandising.content[slot] || []).map((h) =>
            bannerEl(h, 'slot', responseId),
          ),
        );
      }
    }
    const tiles = response.results.map((r) => tile(r, responseId));
    for (const inline of append ? [] : response.merchandising.content.inline || []) {
      const li = document.createElement('li');
      li.append(bannerEl(inline.value, 'inline', responseId));
      Object.assign(li.dataset, li.firstElementChild.dataset);
      tiles.splice(inline.config.position.index, 0, li);
    }
    if (append) list.append(...tiles);
    else list.replaceChildren(...tiles);
    const p = response.pagination;
    document.getElementById('summary').textContent = `${p.totalResults} results`;
    const more = cfg.scroll === 'infinite' && p.page < p.totalPages;
    document.getElementById('more').hidden = !more;
    document.getElementById('next').hidden = cfg.scroll === 'infinite' || p.page >= p.totalPages;
    const observed = append ? tiles : [...document.querySelectorAll('[data-kind]')];
    if (fault === 'impress-all-at-load') observed.forEach(impress);
    else for (const el of observed) observer.observe(el);
  }

  function sendRender(responseId) {
    const send = () => track.render({ data: { responseId: trackedId(responseId) } });
    if (fault === 'render-after-impressions') window.setTimeout(send, 2500);
    else send();
    if (fault === 'render-twice') send(); // React strict mode running the effect twice
  }

  async function search(p, { append = false } = {}) {
    try {
      const previous = state.responseIds[state.responseIds.length - 1];
      if (fault === 'render-early-empty' && !append) track.render({ data: { responseId: '' } });
      if (fault === 'render-early-previous' && previous && !append)
        track.render({ data: { responseId: previous } });
      const request = {
        // events-after-redirect: a storefront that asks for the full response so it can still show results
        search: {
          query: { string: p.q },
          ...(fault === 'events-after-redirect' && { redirectResponse: 'full' }),
        },
        pagination: { page: p.page, pageSize },
        filters: p.filters,
        sorts: p.sort ? [p.sort] : [],
      };
      // a category page: no query, the category as a background filter (Snap's category controller config)
      const [, response] = category
        ? await client.category({
            ...request,
            search: {},
            filters: [
              { type: 'value', field: 'category', value: category, background: true },
              ...p.filters,
            ],
          })
        : await client.search(request);
      const responseId = response.tracking.responseId;
      const redirect = response.merchandising.redirect;
      if (redirect && !append && p.filters.length === 0)
        return await redirectTo(response, responseId, redirect);
      const seen = JSON.parse(sessionStorage.getItem('corpus-seen') || '[]');
      const cached = seen.includes(responseId);
      sessionStorage.setItem('corpus-seen', JSON.stringify([...seen, responseId]));
      if (!append) view = { first: responseId };
      renderResponse(response, { append });
      state.responseIds.push(responseId);
      if (fault === 'render-early-empty' || fault === 'render-early-previous') {
        /* the render already went out, before the response */
      } else if (fault === 'category-no-render') {
        /* a category template that forgot the render: impressions and clicks only */
      } else if (!(fault === 'cached-no-render' && cached)) sendRender(responseId);
      state.searches++;
      view.page = p.page;
      view.params = p;
    } catch (err) {
      state.error = String((err && err.err) || err);
    }
  }

  async function redirectTo(response, responseId, redirect) {
    const target = new URL(redirect, window.location.href).href;
    if (fault !== 'redirect-not-sent')
      track.redirect({
        data: {
          responseId,
          redirect: fault === 'redirect-wrong-url' ? `${target}?from=search` : redirect,
        },
      });
    state.redirected = redirect;
    if (fault === 'events-after-redirect') {
      // an SPA that sends the redirect but keeps showing (and tracking) the results instead of leaving
      renderResponse(response, { append: false });
      sendRender(responseId);
      await until(() => state.sent.some((s) => s.event === 'impression'));
      return;
    }
    // Snap replaces the location at once; the recording waits for the redirect beacon to be answered first
    if (fault !== 'redirect-not-sent')
      await until(() => state.sent.some((s) => s.event === 'redirect'));
    window.location.replace(target);
  }

  // ---- autocomplete dropdown ----
  const box = document.getElementById('q');
  const acList = document.getElementById('ac');
  let acShown = null; // the responseId of the autocomplete response shown in the dropdown
  let acTimer = null;

  function acTile(result, responseId) {
    const li = document.createElement('li');
    const item = productItem(result);
    Object.assign(li.dataset, {
      kind: 'product',
      track: 'autocomplete',
      uid: item.uid,
      item: JSON.stringify(item),
      responseId,
    });
    const a = document.createElement('a');
    a.href = `./product.html?id=${encodeURIComponent(result.id)}`;
    a.textContent = result.mappings.core.name;
    a.addEventListener('click', async (ev) => {
      ev.preventDefault();
      beacon.events.autocomplete.clickThrough({ data: { responseId, results: [item] } });
      await until(() => state.sent.some((s) => s.event === 'clickthrough'));
      window.location.href = a.href;
    });
    li.append(a);
    return li;
  }

  async function autocomplete(q) {
    if (!q.trim()) return;
    try {
      const [, response] = await client.autocomplete({
        search: { query: { string: q } },
        pagination: { pageSize: 4 },
      });
      const responseId = response.tracking.responseId;
      state.acResponseId = responseId;
      // ACC: a repeated search (the response shown again, e.g. from the client's cache) keeps its tiles and
      // impression flags and sends no render; ac-render-twice is the bug Snap fixed in ad0d632
      const repeated = responseId === acShown;
      if (!repeated) {
        const tiles = response.results.map((r) => acTile(r, responseId));
        acList.replaceChildren(...tiles);
        for (const el of tiles) observer.observe(el);
      }
      if (!repeated || fault === 'ac-render-twice')
        beacon.events.autocomplete.render({ data: { responseId } });
      acShown = responseId;
      acList.hidden = false;
      state.autocompletes++;
    } catch (err) {
      state.error = String((err && err.err) || err);
    }
  }
  if (cfg.autocomplete) {
    box.addEventListener('input', () => {
      window.clearTimeout(acTimer);
      acTimer = window.setTimeout(() => autocomplete(box.value), 200);
    });
    // Snap's ACC searches again when the input is focused with a value in it
    box.addEventListener('focus', () => autocomplete(box.value));
  }

  document.getElementById('search-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    window.clearTimeout(acTimer);
    for (const el of acList.children) observer.unobserve(el);
    acList.replaceChildren();
    acList.hidden = true;
    acShown = null;
    go({ ...readUrl(), q: box.value, page: 1 });
  });
  document.getElementById('sort').addEventListener('change', (ev) => {
    const [field, direction] = ev.target.value.split(':');
    go({ ...readUrl(), page: 1, sort: field ? { field, direction } : null });
  });
  document.getElementById('filter-blue').addEventListener('change', (ev) => {
    const filters = ev.target.checked ? [{ type: 'value', field: 'color', value: 'Blue' }] : [];
    go({ ...readUrl(), page: 1, filters });
  });
  document
    .getElementById('next')
    .addEventListener('click', () => go({ ...readUrl(), page: readUrl().page + 1 }));
  document.getElementById('more').addEventListener('click', () => {
    if (fault === 'infinite-reset-impressions') {
      // Snap bug 6a63aa5: the impression map reset and the tiles re-observed, so page-1 tiles still on
      // screen are impressed again with page 1's responseId
      impressed.clear();
      for (const el of document.querySelectorAll('[data-kind]')) {
        observer.unobserve(el);
        observer.observe(el);
      }
    }
    search({ ...view.params, page: view.page + 1 }, { append: true });
  });
  const initial = readUrl();
  document.getElementById('q').value = initial.q;
  if (initial.q || category) search(initial);
}

function until(cond) {
  return new Promise((resolve) => {
    const poll = () => (cond() ? resolve() : window.setTimeout(poll, 20));
    poll();
  });
}
