// `price-unit-mismatch`: an order line whose price is not a unit price in the cart's unit: about 100 times
// (or a hundredth of) what the visit's cart events said the product cost — cents in one place, units in
// the other — or the line's total (qty × the cart's price, or prices that add up to transactionTotal only
// without their quantities); and a cart event's item priced about 100 times (or a hundredth of) what a
// quick add of the same product carried (the client sends both as the product's unit price: SC
// track.product.addToCart `Number(price) || 0`, T's cart globals `price`). The book notes both when the
// event arrives (prices.ts). With the site's indexed catalog, a cart item or order line priced about 100
// times (or a hundredth of) the product's catalog price is named too (the feed's price is the one the
// search results, and so the quick adds, carry).
// A quick add (search, category, autocomplete, recommendations or bundles addtocart) priced about 100 times
// (or a hundredth of) the product's unit price the sandbox knows is named on its response: the price the
// response the sandbox issued served for the item (a variant's own when the response served one, else its
// result's), else, for a response the sandbox did not issue or kept without prices, the site's catalog
// price (as the visit's: not on a site whose account turned catalogCheck off). Every controller sends the
// result's own price (SC track.product.addToCart `price: Number(price) || 0`; the client's description of
// its clickthrough and addtocart, and of the stored cart every */addtocart adds to), so a factor of 100 is
// cents where the tiles' data should hold the currency unit.
// A cart event off the quick add of the same product is told apart by the product's unit price, when the
// sandbox knows it (the price a response it issued for the site served, else the catalog's): the cart at
// that price is right and is not named (the quick add in cents is, on its own page); the quick add at that
// price names the cart as the one in cents; with neither, one of the two is (quickAddFinding).
// "About 100": 50× or more, or 1/50 or less (unitRatio), as for the cart and the order. Exempt: any smaller
// difference (a sale, a coupon, rounding, a pack price, a variant's own price), a missing price (0), a
// product neither the issued response nor the catalog prices (nothing to compare with), and, for a line's
// total, lines of one. Prices are compared only in one currency: an event whose context.currency.code names
// another currency than the visit's earlier prices lets those go (visits/prices.ts `pricesIn`: a shopper who
// switched from USD to JPY orders at about 150× the cart's price, which is no unit mistake).
import { finding, type Finding } from '../../finding';
import { judgedIn, type RuleMeta } from '../../rule-meta';
import { defineRule } from '../../rule';
import { RESPONSE_KINDS } from '../../../../shared/kinds';
import type { IssuedResponse } from '../../../search/responses';
import { about, cartPriceOf, unitRatio } from '../../visits/prices';
import { Offenders, issuedFor, itemType, servedResult } from './utils/provenance';
import type { VisitContext } from '../../visits/rules/types';
import type { QuickPriceIssue, VisitEvent } from '../../visits/events';

// each quick add is its controller's: the search page's, the category page's, the dropdown's, a widget's
const quickAdds = judgedIn(RESPONSE_KINDS, ['search.addtocart']);

const meta: RuleMeta<'response' | 'visit'> = {
  id: 'price-unit-mismatch',
  // a response's quick adds, and the cart and order events of the page
  judges: ['response', 'visit'],
  title: 'Prices in another unit than the cart’s, the quick add’s or the catalog’s',
  description:
    'An order line whose price is not a unit price in the cart’s unit: about 100× (or 1/100 of) the price the visit’s cart events (or quick adds) carried for the same product (cents against units), or the line’s total (qty × price); a cart event’s item about 100× (or 1/100 of) what a quick add of it carried (not when the cart agrees with the product’s unit price the sandbox knows: the quick add is the one in cents, named on its own page); a quick add’s item about 100× (or 1/100 of) the price the response it names served for it (or, for a response the sandbox did not issue, the catalog’s); with an indexed catalog, a cart item or order line about 100× (or 1/100 of) the product’s catalog price (an order whose lines carry the visit’s cart’s prices, off the catalog alike, is named as repeating the cart’s unit, with the cart’s fix). Smaller differences (a sale, a coupon, a variant’s price), products neither priced, and prices in another currency (context.currency.code) than the ones compared with are not findings.',
  expects:
    'Quick adds, cart and order lines carry unit prices in the same unit, the currency unit (12.5, not 1250; the price of one, not of the line).',
  appliesTo: [...quickAdds.appliesTo, 'order', 'cart'],
  guards: ['order.totals', 'search.addtocart', 'cart.items', ...quickAdds.guards.slice(1)],
  defaultSeverity: 'error',
  messages: {
    addOtherUnit:
      "{{count}} added with responseId \"{{responseId}}\" {{are}} priced in another unit than the product's unit price: {{offenders}}. The provider's client sends a quick add's price as the result's own (`Number(price) || 0`), the unit price the cart and the order use, so the add's revenue is off by a factor of 100.",
    catalogOtherUnit:
      "{{eventId}} prices {{lines}} in another unit than site {{siteId}}'s indexed catalog: {{issues}}. The provider's client sends the product's unit price, in the unit of the feed's prices (which the search results and the quick adds carry), so revenue and cart values are off by a factor of 100.",
    otherUnit:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} other than as a unit price in the visit's cart's unit: {{issues}}. Revenue reports (Σ qty × price) and the line's credit read the order's prices.",
    quickAddOtherUnit:
      "{{eventId}} prices {{lines}} in another unit than the quick add of the same product: {{issues}}. The provider's client sends both as the product's unit price (the quick add the result's price, the cart the page's cart globals), so one of the two is in cents and the cart's value or the add's revenue is off by a factor of 100.",
    cartInOtherUnit:
      "{{eventId}} prices {{lines}} {{unit}}: {{issues}}. The provider's client sends both as the product's unit price (the quick add the result's price, the cart the page's cart globals), and the quick add's is the product's unit price, so the cart globals' price is the one {{which}} and the cart's value is off by a factor of 100.",
    cartUnitRepeated:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} in the unit the visit's cart carried, not in site {{siteId}}'s catalog's: {{issues}}. The same unit mistake as the visit's cart ({{carts}} carried these prices, and is named for them on its own page), not a second one: the provider's client sends the cart globals' and the order script's prices alike, as the product's unit price, so the storefront hands both the same prices in cents (or a hundredth of them), and the order's revenue is off by a factor of 100 like the cart's value.",
    cartOtherUnit:
      "order \"{{orderId}}\" ({{eventId}}) prices {{lines}} at a hundredth of what the visit's cart (or quick add) carried: {{issues}}. The order's lines are the smaller unit, the currency unit; the cents are in the cart events' prices (the page's cart globals) or the tiles' data a quick add reads, so the cart's value and the add's revenue are off by a factor of 100.",
  },
  fixes: {
    addOtherUnit:
      'send the result’s price as the search response gave it (the currency unit, not cents): do not multiply it by 100 in the tile’s add-to-cart data.',
    catalogOtherUnit:
      'send unit prices in the unit of the feed (the currency unit, not cents): divide cents by 100 in the cart globals or the order script.',
    quickAddOtherUnit:
      'send the same unit price in the tiles’ data (the quick add) and in the cart globals: the currency unit, not cents.',
    cartInOtherUnit:
      'send the cart globals’ prices in the currency unit, as the quick add sends the result’s price: divide cents by 100 in the cart globals; the tiles’ data is right.',
    otherUnit:
      "send each line's unit price in the unit the cart uses (divide cents by 100 in the order script; never qty × price).",
    cartUnitRepeated:
      'the cart’s fix ({{carts}}), in the order script too: send unit prices in the currency unit of the feed wherever the storefront reads its prices, the cart globals and the order script alike; fixing the cart globals alone leaves the order off.',
    cartOtherUnit:
      'send the cart globals’ prices (and the tiles’ data a quick add reads) in the currency unit, as the order’s lines are: divide cents by 100 there, not in the order script.',
  },
  fix: 'Send unit prices in one unit, the currency unit, in the cart globals, the tiles’ data and the order script: divide cents by 100 where they are (an order line a hundredth of the cart’s is right, its cart is not); never qty × price.',
  listens: ['addtocart', 'cart/add', 'cart/remove', 'order/transaction'],
  needs: { visit: true, catalog: true, provenance: true },
};

export const priceUnitMismatch = defineRule({
  meta,
  /**
   * The response's quick adds against the product's unit price: the price the issued response served for
   * the item (its result's, or the variant's own), else the site's catalog price (a site whose account
   * checks ids against it, as the visit's catalog). A product neither prices is not judged.
   */
  response(r, ctx) {
    if (r.facts.carts.length === 0) return [];
    const issued = issuedFor(r, ctx);
    const site = ctx.catalog?.site(ctx.page.siteId);
    const priceOf =
      site?.catalogCheck === false ? undefined : ctx.catalog?.catalog(ctx.page.siteId)?.priceOf;
    if (!issued && !priceOf) return [];
    const bad = new Offenders();
    for (const e of r.facts.carts)
      for (const [i, item] of e.results.entries()) {
        const price = e.prices?.[i] ?? 0;
        if (price <= 0 || itemType(item) === 'banner') continue;
        const served = issued ? servedPrice(issued, item.uid) : undefined;
        const known = served ?? priceOf?.(item.uid);
        const ratio = known === undefined ? null : unitRatio(price, known);
        if (ratio === null) continue;
        bad.add(
          item.uid,
          e.id,
          `at ${price} where ${served !== undefined ? 'the response served it at' : 'the catalog has'} ${known} (${about(ratio)})`,
        );
      }
    if (bad.size === 0) return [];
    return [
      bad.finding(meta, r.responseId, {
        messageId: 'addOtherUnit',
        noun: 'item',
        words: { are: bad.size === 1 ? 'is' : 'are' },
        // the judge names each other kind's own controller's behaviour
        behaviour: 'search.addtocart',
      }),
    ];
  },
  visit(page, ctx) {
    const out: Finding[] = [];
    // the cart events named here for their quick add's price: the catalog's check leaves them to this
    const named = new Set<VisitEvent>();
    for (const o of ctx.accepted) {
      if (o.quickAddIssues) {
        const f = quickAddFinding(o, o.quickAddIssues, ctx);
        if (f) {
          out.push(f);
          named.add(o);
        }
      } else if (o.priceIssues) out.push(orderFinding(o, o.priceIssues));
    }
    return ctx.catalog?.priceOf ? out.concat(catalogIssues(page.siteId, ctx, named)) : out;
  },
});

/**
 * An order whose lines are not unit prices in the visit's cart's unit: the order's own (`otherUnit`), or,
 * every line a hundredth of the cart's, the cart's (`cartOtherUnit`: its items are the cents).
 */
function orderFinding(o: VisitEvent, issues: readonly string[]): Finding {
  const elsewhere = o.pricedElsewhereInCents === true;
  return finding(
    meta,
    o.base.id,
    {
      messageId: elsewhere ? 'cartOtherUnit' : 'otherUnit',
      data: {
        orderId: o.orderId ?? '',
        eventId: o.base.id,
        lines: count(issues.length, 'line'),
        issues: issues.slice(0, 5).join(', '),
      },
    },
    [o.base.id],
    // an order's lines are its totals' unit, unless the cents are the cart's: its items
    { behaviour: elsewhere ? 'cart.items' : 'order.totals' },
  );
}

/**
 * A cart event's items about 100× (or 1/100 of) what a quick add of the same product carried. Which of the
 * two is off, the product's unit price tells, when the sandbox knows it: the price a response it issued for
 * the site served for the product (a variant's own, else its result's), else the site's catalog price (as
 * the visit's: not on a site whose account turned catalogCheck off) — the sources the quick add's own check
 * (`response` above) reads. The client sends both as that unit price (what the provider's client sends,
 * "Clickthrough and addtocart": the quick add `price: Number(price) || 0` of the result; the cart events the
 * page's cart globals), so:
 * - the cart at the unit price and the quick add about 100× off it: the quick add is the one in cents, and
 *   its own check names it on its page (addOtherUnit). The cart item is exempt here: a finding on the cart
 *   would read as a second bug and ask to change a right price. (The quick add's check reads the price the
 *   response it names served; this one, the site's newest that served the product: the two differ only after
 *   a re-index changed the product's price by 50× or more.)
 * - the quick add at the unit price and the cart about 100× off it: the cart is named as the one off
 *   (`cartInOtherUnit`, the cart globals' fault);
 * - no unit price known (or neither agreeing with it): `quickAddOtherUnit`, one of the two is in cents.
 * Undefined: every item off is the quick add's.
 */
function quickAddFinding(
  o: VisitEvent,
  issues: readonly QuickPriceIssue[],
  ctx: VisitContext,
): Finding | undefined {
  const kept: string[] = [];
  // every item kept is the cart's fault, and how: 100× (cents) or 1/100 of the unit price
  let cartOff = true;
  let over = 0;
  for (const i of issues) {
    const ratio = unitRatio(i.price, i.quickPrice)!;
    const served = ctx.served?.priceOf?.(i.uid);
    const known = served ?? ctx.catalog?.priceOf?.(i.uid);
    const cartAgrees = known !== undefined && unitRatio(i.price, known) === null;
    const quickAgrees = known !== undefined && unitRatio(i.quickPrice, known) === null;
    if (cartAgrees && !quickAgrees) continue;
    const quick = `uid "${i.uid}" at ${i.price} where the quick add ${i.quickEventId} carried ${i.quickPrice}`;
    if (quickAgrees && !cartAgrees) {
      if (ratio > 1) over++;
      kept.push(
        `${quick}, ${served !== undefined ? 'the price the response served' : "the catalog's price"} (${about(ratio)})`,
      );
    } else {
      cartOff = false;
      kept.push(`${quick} (${about(ratio)})`);
    }
  }
  if (kept.length === 0) return undefined;
  const lines = count(kept.length, 'item');
  const data = { eventId: o.base.id, lines, issues: kept.slice(0, 5).join(', ') };
  if (!cartOff)
    return finding(meta, o.base.id, { messageId: 'quickAddOtherUnit', data }, [o.base.id], {
      // the quick add's unit price against the cart's: the add names the unit the cart uses
      behaviour: 'search.addtocart',
    });
  const cents = over === kept.length;
  const under = over === 0;
  return finding(
    meta,
    o.base.id,
    {
      messageId: 'cartInOtherUnit',
      data: {
        ...data,
        unit: cents ? 'in cents' : under ? 'at a hundredth of its unit price' : 'in another unit',
        which: cents ? 'in cents' : under ? 'at a hundredth of it' : 'in another unit',
      },
    },
    [o.base.id],
    { behaviour: 'cart.items' },
  );
}

/**
 * Cart and order events (without a visit price issue: an order off its cart, a cart event named for its
 * quick add's price) whose items are about 100× off the catalog's. An order whose every line off the
 * catalog carries the price the visit's cart carried for it, itself as far off, repeats the cart's unit
 * (`cartUnitRepeated`): the client sends the cart globals' and the order script's prices alike
 * (`Number(price)`, T), so one unit mistake in the storefront's prices shows in both; the cart event was
 * named on its own page (here, or as `cartInOtherUnit` against its quick add), and the order's finding
 * says it is that one, with the same fix. An order in another unit than a cart that agrees with the catalog
 * (or with no cart before it) keeps its own finding.
 */
function catalogIssues(siteId: string, ctx: VisitContext, named: ReadonlySet<VisitEvent>) {
  const priceOf = ctx.catalog!.priceOf!;
  const out = [];
  for (const o of ctx.accepted) {
    if (o.priceIssues !== undefined || named.has(o) || o.endpoint === 'product/pageview') continue;
    const order = o.endpoint === 'order/transaction';
    const issues: string[] = [];
    // the lines that carry the cart's price in the cart's unit, and the cart events that carried them
    const repeated: string[] = [];
    const carts = new Set<string>();
    for (const item of o.items) {
      const known = priceOf(item.uid);
      const ratio = known === undefined ? null : unitRatio(item.price, known);
      if (ratio === null) continue;
      issues.push(
        `uid "${item.uid}" at ${item.price} where the catalog has ${known} (${about(ratio)})`,
      );
      const cart = order ? sameUnitAsCart(item, known!, ratio, ctx) : undefined;
      if (!cart) continue;
      repeated.push(
        `uid "${item.uid}" at ${item.price} where ${cart.eventId} carried ${cart.price} and the catalog has ${known} (${about(ratio)})`,
      );
      carts.add(cart.eventId);
    }
    if (issues.length === 0) continue;
    const what = order ? 'line' : 'item';
    const repeats = repeated.length === issues.length;
    const data = {
      eventId: o.base.id,
      siteId,
      lines: count(issues.length, what),
      issues: (repeats ? repeated : issues).slice(0, 5).join(', '),
      ...(repeats && { orderId: o.orderId ?? '', carts: [...carts].slice(0, 3).join(', ') }),
    };
    out.push(
      finding(
        meta,
        o.base.id,
        { messageId: repeats ? 'cartUnitRepeated' : 'catalogOtherUnit', data },
        [o.base.id],
        // the order's unit is the cart's: the cart globals' behaviour is the one broken
        { behaviour: order && !repeats ? 'order.totals' : 'cart.items' },
      ),
    );
  }
  return out;
}

/**
 * The price the visit's cart carried for an order line off the catalog (`ratio` of `known`), when it is
 * the line's unit: the cart's price off the catalog the same way (cents, or a hundredth), and the line
 * within a sale of it.
 */
function sameUnitAsCart(
  item: { uid: string; price: number },
  known: number,
  ratio: number,
  ctx: VisitContext,
): { price: number; eventId: string } | undefined {
  const cart = cartPriceOf(ctx.visit, item.uid);
  if (!cart) return undefined;
  const cartRatio = unitRatio(cart.price, known);
  if (cartRatio === null || cartRatio > 1 !== ratio > 1) return undefined;
  return unitRatio(item.price, cart.price) === null ? cart : undefined;
}

/** The price an issued response served for a uid: a variant's own, else its result's (when it kept one). */
function servedPrice(issued: IssuedResponse, uid: string): number | undefined {
  const served = servedResult(issued, uid);
  return served && (served.child?.price ?? served.result.price);
}

/** "a line", "an item", "2 lines" */
function count(n: number, what: 'line' | 'item'): string {
  return n === 1 ? `${what === 'item' ? 'an' : 'a'} ${what}` : `${n} ${what}s`;
}
