import ICAL from 'ical.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's UTC offset at an instant in minutes, east positive, from the platform's time zone data. */
export function zoneOffsetMinutes(timeZone: string, instant: number): number {
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  const name = formatter.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name);
  if (!match) throw new Error(`No UTC offset for ${timeZone}`);
  if (match[1] === undefined) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

interface Observance {
  /** The instant it takes effect. */
  at: number;
  from: number;
  to: number;
}

/**
 * The zone's offset changes in [from, to]: scanned a day at a time, each change narrowed to its minute.
 * The first observance is the offset in force at `from`.
 */
function observances(timeZone: string, from: number, to: number): Observance[] {
  const start = Math.floor(from / MINUTE_MS) * MINUTE_MS;
  const initial = zoneOffsetMinutes(timeZone, start);
  const found: Observance[] = [{ at: start, from: initial, to: initial }];
  let before = start;
  let offset = initial;
  for (let after = start + DAY_MS; before < to; after += DAY_MS) {
    const next = zoneOffsetMinutes(timeZone, after);
    if (next !== offset) {
      let low = before;
      let high = after;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / 2 / MINUTE_MS) * MINUTE_MS;
        if (zoneOffsetMinutes(timeZone, middle) === offset) low = middle;
        else high = middle;
      }
      found.push({ at: high, from: offset, to: zoneOffsetMinutes(timeZone, high) });
      offset = zoneOffsetMinutes(timeZone, high);
    }
    before = after;
  }
  return found;
}

/** The zone's standard offset in a year: the smaller of its January and July offsets. */
function standardOffset(timeZone: string, instant: number): number {
  const year = new Date(instant).getUTCFullYear();
  return Math.min(
    zoneOffsetMinutes(timeZone, Date.UTC(year, 0, 1)),
    zoneOffsetMinutes(timeZone, Date.UTC(year, 6, 1)),
  );
}

/** Wall-clock time in the offset that applied just before `instant`, as RFC 5545 wants an observance's DTSTART. */
function localTime(instant: number, offsetMinutes: number): ICAL.Time {
  const local = new Date(instant + offsetMinutes * MINUTE_MS);
  return ICAL.Time.fromData({
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: 0,
    isDate: false,
  });
}

/**
 * A VTIMEZONE for an IANA zone that is exact between two instants: one STANDARD or DAYLIGHT observance
 * for the offset in force at `from` and one for every change up to `to`, each with its own DTSTART (no
 * recurrence rules), as the platform's Intl time zone data gives them.
 */
export function vtimezoneComponent(timeZone: string, from: number, to: number): ICAL.Component {
  const zone = new ICAL.Component('vtimezone');
  zone.addPropertyWithValue('tzid', timeZone);
  for (const observance of observances(timeZone, from, to)) {
    const kind = observance.to > standardOffset(timeZone, observance.at) ? 'daylight' : 'standard';
    const component = new ICAL.Component(kind);
    component.addPropertyWithValue('dtstart', localTime(observance.at, observance.from));
    component.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromSeconds(observance.from * 60));
    component.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromSeconds(observance.to * 60));
    zone.addSubcomponent(component);
  }
  return zone;
}
