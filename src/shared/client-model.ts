// The shape of the client model: the behaviours of the provider's storefront client that the sandbox
// models, by area. Shared by the server (the model, readiness), the renderer and the package's types.

/** Where a behaviour lives in the client: a controller, a tracker script, or the identity it keeps. */
export const BEHAVIOUR_AREAS = [
  'search',
  'category',
  'autocomplete',
  'recommendations',
  'bundles',
  'product',
  'cart',
  'order',
  'login',
  'identity',
  'mode',
] as const;
export type BehaviourArea = (typeof BEHAVIOUR_AREAS)[number];

/** One behaviour as `docs/client-model.md`, readiness and a finding's `behaviour` name it. */
export interface BehaviourInfoDto {
  /** stable and public, like a rule id: `search.render`, `cart.ledger` */
  id: string;
  area: BehaviourArea;
  title: string;
  /** where it was read: the client's file and function, or its commit */
  source: string;
  /** what it implies for the traffic a storefront sends */
  invariant: string;
  /** the rules that check it (from their metas' `guards`) */
  rules: string[];
  /** when no rule can check it with certainty: why */
  uncheckable?: string;
}
