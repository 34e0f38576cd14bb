/** What the flight and stay screens use of checkout: an offer's details, and handing a choice to checkout. */
export { saveSelection } from './checkout-selection.ts';
export { OfferDetails } from './offer-details.tsx';
export { RateDetails } from './rate-details.tsx';
