/**
 * The events of POST /api/stays/priced-search (docs/decisions.md, "Priced stay search"): the BFF runs the
 * travel API's stay search and prices every property it finds, and sends both on this one stream. Order:
 * a property's `property` comes before its `fare`s, which come before its `property-end`; `search-end`
 * follows the last `property`; exactly one of `done`, `truncated` or `error` ends the stream, after every
 * `property-end` (or, for `error`, instead of the rest). The names without the schemas: the SPA reads the
 * stream without loading zod (the BFF checked every event against priced-stay-search.ts before sending it).
 */
export const PRICED_STAY_SEARCH_EVENTS = {
  /** A property the search found (the travel API's search event, unchanged). */
  property: 'property',
  /** How many properties the search has sent of how many it expects (unchanged). */
  progress: 'progress',
  /** One bookable rate of one property, as it arrives. */
  fare: 'fare',
  /** One property's pricing is over: priced, no rooms, or failed with its error envelope. */
  propertyEnd: 'property-end',
  /** The search sent its last property (complete, or cut short): only pricing is left. */
  searchEnd: 'search-end',
  /** Every property found was priced (or answered no rooms, or failed); ends the stream. */
  done: 'done',
  /** The search was cut short; every property sent so far has ended; ends the stream. */
  truncated: 'truncated',
  /** The search failed, or a price showed the whole search is void (MAX_NIGHTS_EXCEEDED, OFFER_EXPIRED). */
  error: 'error',
} as const;
