/**
 * Every date, time, duration and price the traveler sees goes through these, with the traveler's
 * locale. Times are shown in the zone of the place they happen (the airport or the hotel), never the
 * browser's.
 */
export interface Formatters {
  locale: string;
  money: (amount: number, currency: string) => string;
  /** A calendar date (YYYY-MM-DD) as the traveler reads it, e.g. "Mon, 3 Mar 2025". */
  calendarDate: (isoDate: string, style?: 'short' | 'long') => string;
  /** From one calendar date to another, "Wed, 16 Dec – Fri, 18 Dec"; a single day is its one date. */
  calendarRange: (startDate: string, endDate: string, style?: 'short' | 'long') => string;
  /** Wall-clock time of an instant in a zone, e.g. "07:45". */
  time: (instant: string, timeZone?: string) => string;
  /** Date and time of an instant in a zone. */
  dateTime: (instant: string, timeZone?: string) => string;
  /**
   * A time that changed, the old and the new, on the interface's own clock: the times alone when both
   * fall on the same local day ("12:25 PM", "4:00 PM"), each with its day when they do not ("Thu, Nov 26,
   * 12:25 PM", "Fri, Nov 27, 7:45 AM"), so a delay into the next day never reads as an earlier time.
   */
  timeChange: (scheduled: string, estimated: string, timeZone?: string) => TimeChange;
  /** Date and time as written in a local ISO timestamp with its offset (the place's own wall clock). */
  wallDateTime: (localIso: string) => string;
  /** "2h 35m" */
  duration: (minutes: number) => string;
  /** "2 hours and 35 minutes", "45 minutes": a duration in words, for sentences. */
  durationInWords: (minutes: number) => string;
  /** "5 minutes ago", "yesterday" */
  relative: (instant: string, now?: Date) => string;
  count: (value: number) => string;
}

export interface TimeChange {
  scheduled: string;
  estimated: string;
  /** The new time falls on another local day than the scheduled one. */
  dayChanged: boolean;
}

const cache = new Map<string, Formatters>();

/**
 * Intl formatters made once per locale and options: making one costs far more than formatting with it
 * (a results page formats hundreds of prices and times as it draws, and again as they stream in). The
 * options come from a few fixed shapes and the zones of the places shown, so the map stays small.
 */
const madeFormats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function madeOnce<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let format = madeFormats.get(key) as T | undefined;
  if (format === undefined) {
    format = make();
    madeFormats.set(key, format);
  }
  return format;
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return madeOnce(
    `date ${locale} ${JSON.stringify(options)}`,
    () => new Intl.DateTimeFormat(locale, options),
  );
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  return madeOnce(
    `number ${locale} ${JSON.stringify(options)}`,
    () => new Intl.NumberFormat(locale, options),
  );
}

export function formattersFor(locale: string): Formatters {
  const resolved = supportedLocale(locale);
  const existing = cache.get(resolved);
  if (existing) return existing;
  const created = createFormatters(resolved);
  cache.set(resolved, created);
  return created;
}

function supportedLocale(locale: string): string {
  try {
    return Intl.getCanonicalLocales(locale)[0] ?? 'en-GB';
  } catch {
    return 'en-GB';
  }
}

/**
 * The formatters of a locale. Each Intl object is made when it is first used, not with the set: a page
 * uses a few of them, and making one is the costly part (a signed-in page made seven before it drew).
 */
function createFormatters(locale: string): Formatters {
  let plain: Intl.NumberFormat | undefined;
  const number = () => (plain ??= new Intl.NumberFormat(locale));
  const unit = (name: 'hour' | 'minute', unitDisplay: 'narrow' | 'long') =>
    madeOnce(
      `unit ${locale} ${name} ${unitDisplay}`,
      () => new Intl.NumberFormat(locale, { style: 'unit', unit: name, unitDisplay }),
    );
  let relative: Intl.RelativeTimeFormat | undefined;
  let and: Intl.ListFormat | undefined;
  const calendarDate = (isoDate: string, style: 'short' | 'long' = 'short') =>
    dateTimeFormat(locale, {
      timeZone: 'UTC',
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      ...(style === 'long' ? { year: 'numeric' } : {}),
    }).format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`));
  return {
    locale,
    money: (amount, currency) => {
      try {
        return numberFormat(locale, { style: 'currency', currency }).format(amount);
      } catch {
        return `${number().format(amount)} ${currency}`;
      }
    },
    calendarDate,
    calendarRange: (startDate, endDate, style) =>
      startDate.slice(0, 10) === endDate.slice(0, 10)
        ? calendarDate(startDate, style)
        : `${calendarDate(startDate, style)} – ${calendarDate(endDate, style)}`,
    time: (instant, timeZone) =>
      dateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' }).format(new Date(instant)),
    timeChange: (scheduled, estimated, timeZone) => {
      const dayChanged = localDateOf(scheduled, timeZone) !== localDateOf(estimated, timeZone);
      const clock = dateTimeFormat(locale, {
        timeZone,
        ...(dayChanged ? { weekday: 'short', day: 'numeric', month: 'short' } : {}),
        hour: 'numeric',
        minute: '2-digit',
      });
      return {
        scheduled: clock.format(new Date(scheduled)),
        estimated: clock.format(new Date(estimated)),
        dayChanged,
      };
    },
    dateTime: (instant, timeZone) =>
      dateTimeFormat(locale, {
        timeZone,
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(instant)),
    wallDateTime: (localIso) =>
      dateTimeFormat(locale, {
        timeZone: 'UTC',
        weekday: 'short',
        day: 'numeric',
        month: 'short',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(`${localIso.slice(0, 16)}:00Z`)),
    duration: (totalMinutes) => {
      const h = Math.floor(totalMinutes / 60);
      const m = Math.round(totalMinutes % 60);
      if (h === 0) return unit('minute', 'narrow').format(m);
      if (m === 0) return unit('hour', 'narrow').format(h);
      return `${unit('hour', 'narrow').format(h)} ${unit('minute', 'narrow').format(m)}`;
    },
    durationInWords: (totalMinutes) => {
      const h = Math.floor(totalMinutes / 60);
      const m = Math.round(totalMinutes % 60);
      const parts = [
        h > 0 ? unit('hour', 'long').format(h) : '',
        m > 0 || h === 0 ? unit('minute', 'long').format(m) : '',
      ];
      and ??= new Intl.ListFormat(locale, { type: 'conjunction' });
      return and.format(parts.filter(Boolean));
    },
    relative: (instant, now = new Date()) => {
      const seconds = (new Date(instant).getTime() - now.getTime()) / 1000;
      const abs = Math.abs(seconds);
      relative ??= new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
      if (abs < 60) return relative.format(Math.round(seconds), 'second');
      if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
      if (abs < 86_400) return relative.format(Math.round(seconds / 3600), 'hour');
      return relative.format(Math.round(seconds / 86_400), 'day');
    },
    count: (value) => number().format(value),
  };
}

/** "Lisbon" for Europe/Lisbon, "New York" for America/New_York: the place a zone's clock is named after. */
export function zoneCity(timeZone: string): string {
  return (timeZone.split('/').pop() ?? timeZone).replaceAll('_', ' ');
}

/**
 * The calendar date (YYYY-MM-DD) of an instant in a zone (the browser's when none is given). The
 * browser's own zone is read from the Date itself: making the first Intl.DateTimeFormat of a page costs
 * a phone 50-80 ms of main thread, and every page asks for today's date as it first draws.
 */
export function localDateOf(instant: string, timeZone?: string): string {
  if (timeZone === undefined) {
    const date = new Date(instant);
    if (Number.isNaN(date.getTime())) throw new RangeError(`Invalid time value: ${instant}`);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  }
  const parts = dateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Whole days between two local calendar dates: the "+1" of an arrival the next day. */
export function dayOffset(
  departure: string,
  departureZone: string | undefined,
  arrival: string,
  arrivalZone: string | undefined,
): number {
  const from = Date.parse(`${localDateOf(departure, departureZone)}T00:00:00Z`);
  const to = Date.parse(`${localDateOf(arrival, arrivalZone)}T00:00:00Z`);
  return Math.round((to - from) / 86_400_000);
}

/** Nights between two calendar dates (YYYY-MM-DD). */
export function nightsBetween(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(`${checkOut}T00:00:00Z`) - Date.parse(`${checkIn}T00:00:00Z`)) / 86_400_000);
}

/** Today's calendar date in the browser's zone, as YYYY-MM-DD. */
export function todayIsoDate(now: Date = new Date()): string {
  return localDateOf(now.toISOString());
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
