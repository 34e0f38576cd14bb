import { messages as app } from './catalogs/app.en.ts';
import { messages as forms } from './catalogs/forms.en.ts';
import { messages as flights } from './catalogs/flights.en.ts';
import { messages as stays } from './catalogs/stays.en.ts';
import { messages as checkout } from './catalogs/checkout.en.ts';
import { messages as start } from './catalogs/start.en.ts';
import { messages as notices } from './catalogs/notices.en.ts';
import { messages as rebooking } from './catalogs/rebooking.en.ts';

/**
 * The interface's messages in English, the source catalog: ICU MessageFormat, one id per message. Each
 * area of the interface keeps its messages in catalogs/<area>.<language>.ts, ids prefixed with the area
 * (app.*.ts holds the app shell and its first screens); each catalog file is compiled at build time
 * (scripts/precompiled-messages-plugin.ts). Every id here must be in each other language: messages.es.ts
 * is typed against this one.
 */
export const messages = {
  ...app,
  ...forms,
  ...flights,
  ...stays,
  ...checkout,
  ...start,
  ...notices,
  ...rebooking,
};
