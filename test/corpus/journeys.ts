// The shopper journeys of the fault corpus, scripted in Chromium against the corpus storefront. A fault
// journey runs a clean journey's steps with one `fault` switch on (see storefront/shop.js).
import { Shopper, type Harness, type Shop } from './harness';

type Settings = Record<string, string>;
export type Script = (h: Harness) => Promise<void>;

/** One shopper, one tab: open, act, let the beacon client send what it holds, close. */
function oneTab(
  search: Settings,
  act: (shop: Shop, shopper: Shopper) => Promise<void>,
  settings: Settings = {},
  contextOptions: Parameters<typeof Shopper.create>[1] = {},
): (fault?: string) => Script {
  return (fault) => async (h) => {
    const shopper = await Shopper.create(h, contextOptions);
    try {
      const shop = await shopper.open(search, { ...settings, ...(fault ? { fault } : {}) });
      await act(shop, shopper);
      await shop.settle();
    } finally {
      await shopper.close();
    }
  };
}

const scrollAndClick = oneTab({ q: 'jacket' }, async (shop) => {
  await shop.searched();
  await shop.scrollAll();
  await shop.click(1);
});

const scroll = (q: string, settings: Settings = {}) =>
  oneTab(
    { q },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
    },
    settings,
  );

const infinite = oneTab(
  { q: 'sock' },
  async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.searchVia(() => shop.page.click('#more'));
    await shop.scrollAll({ from: 8 });
    await shop.searchVia(() => shop.page.click('#more'));
    await shop.scrollAll({ from: 16 });
  },
  { scroll: 'infinite' },
);

/** Search, look at the results, go to a product page and come back with the back button. */
const backFromProduct = (settings: Settings) =>
  oneTab(
    { q: 'jacket' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
      await shop.click(0);
      await shop.page.goBack();
      await shop.searched();
      await shop.scrollAll();
    },
    settings,
  );

const quickAdd = oneTab({ q: 'sock' }, async (shop) => {
  await shop.searched();
  await shop.impressed(await shop.uidOf(0));
  await shop.quickAdd(0);
});

const spaTwoSearches = oneTab({ q: 'jacket' }, async (shop) => {
  await shop.searched();
  await shop.scrollAll();
  await shop.submit('boot');
  await shop.scrollAll();
});

const redirect = oneTab({ q: 'gift card' }, async (shop) => {
  await shop.page.waitForURL(/\/pages\/gift-cards/);
});

/** Two full page loads of two searches in one session (the second typed in the address bar). */
const twoSearchPages = oneTab({ q: 'jacket' }, async (shop) => {
  await shop.searched();
  await shop.scrollAll();
  await shop.settle();
  const next = new URL(shop.page.url());
  next.searchParams.set('q', 'sock');
  await shop.page.goto(next.href);
  await shop.searched();
  await shop.impressed(await shop.uidOf(0));
});

const productPageCart = oneTab({ q: 'sock' }, async (shop) => {
  await shop.searched();
  await shop.impressed(await shop.uidOf(0));
  await shop.click(0);
  await shop.page.click('#add');
});

/** A category page (category.json through the Snap client): scroll, quick add, click a tile. */
const categoryPage = oneTab({ category: 'Jackets' }, async (shop) => {
  await shop.searched();
  await shop.scrollAll();
  await shop.quickAdd(0);
  await shop.click(1);
});

/** Type in the search box: the dropdown is rendered and impressed; focus again (the cached response, no
 * render); click a product of the dropdown. Production, so the client's cache answers the repeat. */
const autocompleteClick = oneTab(
  {},
  async (shop) => {
    await shop.type('jacket');
    await shop.acImpressed();
    await shop.refocus();
    // what the repeat sends (nothing, or a render with ac-render-twice) is queued: let it go before leaving
    await shop.settle();
    await shop.acClick(0);
  },
  { mode: 'production', autocomplete: '1' },
);

/** Type in the search box, then press Enter: the search page shows the results of the query typed. */
const autocompleteSubmit = oneTab(
  {},
  async (shop) => {
    await shop.type('jacket');
    await shop.acImpressed();
    await shop.page.press('#q', 'Enter');
    await shop.searched();
    await shop.scrollAll();
  },
  { autocomplete: '1' },
);

/** From a search to a product page with two recommendation widgets (the sandbox's recommend API): both
 * rendered and impressed, a product of the second widget clicked; its own page shows two widgets of its own. */
const productWidgets = oneTab({ q: 'jacket' }, async (shop) => {
  await shop.searched();
  await shop.impressed(await shop.uidOf(0));
  await shop.click(0);
  await shop.widgetsShown();
  await shop.scrollWidgets();
  await shop.recClick('more-like-this', 1);
  await shop.widgetsShown();
  await shop.scrollWidgets();
});

export const SCRIPTS: Record<string, Script> = {
  'recommendations-widgets': productWidgets(),
  'rec-wrong-tag': productWidgets('rec-wrong-tag'),
  'rec-tile-not-served': productWidgets('rec-tile-not-served'),
  'category-page': categoryPage(),
  'autocomplete-click': autocompleteClick(),
  'autocomplete-submit': autocompleteSubmit(),
  'autocomplete-id': autocompleteSubmit('autocomplete-id'),
  'category-no-render': categoryPage('category-no-render'),
  'ac-render-twice': autocompleteClick('ac-render-twice'),
  'scroll-impressions': scroll('sock')(),
  'search-scroll-click': scrollAndClick(),
  'infinite-scroll': infinite(),
  pagination: oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.searchVia(() => shop.page.click('#next'));
    await shop.scrollAll();
  })(),
  'filter-change': oneTab({ q: 'jacket' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.searchVia(() => shop.page.check('#filter-blue'));
    await shop.scrollAll();
  })(),
  'sort-change': oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.impressed(await shop.uidOf(0));
    await shop.searchVia(() => shop.page.selectOption('#sort', 'price:asc'));
    await shop.scrollAll();
  })(),
  'back-cached-spa': oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
      await shop.searchVia(() => shop.page.click('#next'));
      await shop.scrollAll();
      await shop.searchVia(() => shop.page.goBack());
      await shop.scrollAll();
    },
    { mode: 'production' },
  )(),
  'back-cached-pdp': backFromProduct({ mode: 'production' })(),
  reload: oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
      await shop.settle();
      await shop.page.reload();
      await shop.searched();
      await shop.scrollAll(); // the browser restores the scroll position: look at every tile again
    },
    { mode: 'production' },
  )(),
  'spa-two-searches': spaTwoSearches(),
  'quick-add': quickAdd(),
  'variant-add': oneTab({ q: 'jacket' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.quickAdd(0, 1);
  })(),
  redirect: redirect(),
  banners: oneTab({ q: 'jacket' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.page.click('#slot-header > *');
    await shop.page.click('#results > li[data-kind="inline"] > *');
  })(),
  'click-right-away': oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
      await shop.impressed(await shop.uidOf(0));
      // a tile of the third row scrolls in and is clicked at once: its impression timer (1 s visible)
      // never fires before the page leaves
      await shop.product(10).scrollIntoViewIfNeeded();
      await shop.click(10);
    },
    { pageSize: '12' },
  )(),
  'hidden-tab': async (h) => {
    const shopper = await Shopper.create(h);
    try {
      const front = await shopper.open({ q: 'jacket' });
      await front.searched();
      const back = await shopper.open({ q: 'sock' });
      await front.page.bringToFront();
      await back.searched();
      await front.scrollAll();
      await back.page.bringToFront();
      await back.scrollAll();
      await front.settle();
      await back.settle();
    } finally {
      await shopper.close();
    }
  },
  'slow-network': async (h) => {
    const shopper = await Shopper.create(h);
    await shopper.context.route('**/api/search/**', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    try {
      const shop = await shopper.open({ q: 'jacket' });
      await shop.searched();
      await shop.scrollAll();
      await shop.submit('sock');
      await shop.scrollAll();
      await shop.settle();
    } finally {
      await shopper.close();
    }
  },
  'two-tabs': async (h) => {
    const shopper = await Shopper.create(h);
    try {
      const [a, b] = await Promise.all([
        shopper.open({ q: 'jacket' }),
        shopper.open({ q: 'boot' }),
      ]);
      await Promise.all([a.searched(), b.searched()]);
      await a.scrollAll();
      await b.scrollAll();
      await a.click(0);
      await Promise.all([a.settle(), b.settle()]);
    } finally {
      await shopper.close();
    }
  },
  'no-results': oneTab({ q: 'zzzyzx' }, async (shop) => {
    await shop.searched();
  })(),
  'production-mode': oneTab(
    { q: 'jacket' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
      await shop.click(1);
    },
    { mode: 'production' },
  )(),
  'tracking-params-revisit': oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
      await shop.settle();
      const next = new URL(shop.page.url());
      next.searchParams.set('utm_source', 'newsletter');
      next.searchParams.set('gclid', 'abc123');
      await shop.page.goto(next.href);
      await shop.searched();
      await shop.scrollAll();
    },
    { mode: 'production' },
  )(),
  'dense-grid': scroll('sock', { dense: '1', pageSize: '24' })(),

  // ---- faults ----
  'stale-spa': spaTwoSearches('stale-spa'),
  'stale-multipage': twoSearchPages('stale-multipage'),
  'render-early-empty': scroll('sock')('render-early-empty'),
  'render-early-previous': spaTwoSearches('render-early-previous'),
  'render-twice': scroll('sock')('render-twice'),
  'impress-all-at-load': oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
    },
    { pageSize: '24' },
  )('impress-all-at-load'),
  'impression-never': oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll({ wait: false });
  })('impression-never'),
  'impress-every-scroll': oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.page.evaluate('window.scrollTo(0, 0)');
    await shop.settle();
  })('impress-every-scroll'),
  'sku-as-uid': oneTab({ q: 'pack' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
  })('sku-as-uid'),
  'inline-in-banners': scroll('jacket')('inline-in-banners'),
  'slot-as-result': scroll('jacket')('slot-as-result'),
  'click-results-and-banners': scrollAndClick('click-results-and-banners'),
  'cart-price-string': quickAdd('cart-price-string'),
  'cart-no-qty': quickAdd('cart-no-qty'),
  'cart-other-page-id': productPageCart('cart-other-page-id'),
  'redirect-not-sent': redirect('redirect-not-sent'),
  'redirect-wrong-url': redirect('redirect-wrong-url'),
  'events-after-redirect': oneTab({ q: 'gift card' }, async (shop) => {
    await shop.page.waitForFunction(`window.__shop.sent.some((s) => s.event === 'impression')`);
  })('events-after-redirect'),
  'session-per-event': scroll('sock')('session-per-event'),
  'pageloadid-per-event': scroll('sock')('pageloadid-per-event'),
  'timestamp-no-offset': scroll('sock')('timestamp-no-offset'),
  'timestamp-epoch': scroll('sock')('timestamp-epoch'),
  'timestamp-local-clock': oneTab(
    { q: 'sock' },
    async (shop) => {
      await shop.searched();
      await shop.scrollAll();
    },
    {},
    { timezoneId: 'Asia/Kathmandu' },
  )('timestamp-local-clock'),
  'dev-without-flag': scroll('sock')('dev-without-flag'),
  'search-without-test': scroll('sock')('search-without-test'),
  'json-content-type': oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.settle();
  })('json-content-type'),
  'infinite-page1-id': infinite('infinite-page1-id'),
  'infinite-reset-impressions': infinite('infinite-reset-impressions'),
  'cached-no-render': backFromProduct({ mode: 'production' })('cached-no-render'),
  'unknown-responseid': scroll('sock')('unknown-responseid'),
  'render-after-impressions': oneTab({ q: 'sock' }, async (shop) => {
    await shop.searched();
    await shop.scrollAll();
    await shop.page.waitForFunction(`window.__shop.sent.some((s) => s.event === 'render')`);
  })('render-after-impressions'),
};
