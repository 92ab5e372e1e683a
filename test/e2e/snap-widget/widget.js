/* global window, document, URL, MouseEvent */
// A product page with two recommendation widgets mounted the way a Snap storefront mounts them: the
// provider's own RecommendationController (@searchspring/snap-controller 0.78) per profile tag, with its real
// services (Client, RecommendationStore, UrlManager, EventManager, Profiler, Logger, Tracker), the client's
// recommend and meta origins and the tracker's beacon origin pointed at the sandbox (`?sandbox=`). Each
// widget's tiles are impressed through the controller's track.product.impression, as Snap's result
// components do once a tile is seen; `window.__widgets` lets the test click a tile and place an order.
// `?plant=1` adds a tile the widget was never served and impresses it through the same controller.
import { Client } from '@searchspring/snap-client';
import { RecommendationController } from '@searchspring/snap-controller';
import { RecommendationStore } from '@searchspring/snap-store-mobx';
import { UrlManager, QueryStringTranslator, reactLinker } from '@searchspring/snap-url-manager';
import { EventManager } from '@searchspring/snap-event-manager';
import { Profiler } from '@searchspring/snap-profiler';
import { Logger } from '@searchspring/snap-logger';
import { Tracker } from '@searchspring/snap-tracker';

const here = new URL(window.location.href);
const sandbox = here.searchParams.get('sandbox');
const plant = here.searchParams.get('plant') === '1';
const globals = { siteId: 'demo42' };
const mode = 'development';

const client = new Client(globals, {
  mode,
  meta: { origin: sandbox },
  recommend: { origin: sandbox },
});
const tracker = new Tracker(globals, {
  mode,
  requesters: {
    beacon: { origin: `${sandbox}/beacon/v2` },
    personalization: { origin: sandbox },
  },
});
// the product page's own tracking: the viewed product goes to the tracker's lastViewed list too
tracker.track.product.view({ uid: 'P200', sku: 'P200' });

function controllerFor(tag) {
  const config = { id: `recommend_${tag}`, tag, globals: { products: ['P200'], limit: 4 } };
  const urlManager = new UrlManager(new QueryStringTranslator(), reactLinker).detach();
  return new RecommendationController(config, {
    client,
    store: new RecommendationStore(config, { urlManager }),
    urlManager,
    eventManager: new EventManager(),
    profiler: new Profiler(),
    logger: new Logger({ mode }),
    tracker,
  });
}

const state = { widgets: {}, error: null };
window.__widgets = state;

async function mount(tag) {
  const controller = controllerFor(tag);
  await controller.search();
  const store = controller.store;
  if (store.error) throw new Error(`${tag}: ${store.error.message}`);
  const results = [...store.results];
  if (plant && tag === 'similar') {
    // a storefront padding its widget with a tile of its own, tracked like the served ones
    results.push({
      id: '3007',
      type: 'product',
      responseId: results[0].responseId,
      mappings: { core: { uid: '3007', sku: 'P306', name: 'Rain Cover', price: 19 } },
    });
  }
  const list = document.querySelector(`#${tag} ul`);
  list.replaceChildren(
    ...results.map((r) => {
      const li = document.createElement('li');
      li.dataset.uid = r.id;
      li.textContent = `${r.mappings.core.name} — ${r.mappings.core.price}`;
      return li;
    }),
  );
  // as Snap's impression observer does: a tile is impressed once it has been visible for a second
  // (createImpressionObserver: 70% visible for 1 s); these tiles are in view from the start
  window.setTimeout(() => {
    for (const r of results) controller.track.product.impression(r);
  }, 1_000);
  state.widgets[tag] = {
    responseId: results[0] ? results[0].responseId : '',
    uids: results.map((r) => r.id),
    click(uid) {
      const result = results.find((r) => r.id === uid);
      controller.track.product.clickThrough(new MouseEvent('click'), result);
    },
  };
}

window.__order = (items) =>
  tracker.track.order.transaction({
    order: { id: 'snap-widget-order', transactionTotal: 229, total: 229 },
    items,
  });

Promise.all(['similar', 'recently-viewed'].map(mount)).catch((err) => {
  state.error = String((err && err.message) || err);
});
