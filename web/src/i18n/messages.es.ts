import type { MessageId } from './i18n.ts';
import { messages as app } from './catalogs/app.es.ts';
import { messages as forms } from './catalogs/forms.es.ts';
import { messages as flights } from './catalogs/flights.es.ts';
import { messages as stays } from './catalogs/stays.es.ts';
import { messages as checkout } from './catalogs/checkout.es.ts';
import { messages as start } from './catalogs/start.es.ts';
import { messages as notices } from './catalogs/notices.es.ts';
import { messages as rebooking } from './catalogs/rebooking.es.ts';

/** The interface's messages in Spanish (Spain): every id of the English catalog, or the build fails. */
export const messages: Record<MessageId, string> = {
  ...app,
  ...forms,
  ...flights,
  ...stays,
  ...checkout,
  ...start,
  ...notices,
  ...rebooking,
};
