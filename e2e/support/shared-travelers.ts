import type { AdminClient } from './admin-client.ts';
import type { TestTraveler } from './test-travelers.ts';

/** What the travel API stand-in holds of a traveler (GET /admin/travelers/:travelerId). */
export interface TravelerState {
  travelerId: string;
  tables: Record<string, Record<string, unknown>[]>;
  armedLevers: string[];
  /** The faults set for the traveler's requests alone. */
  faults: Record<string, unknown>;
  /** SHA-256 of the rest: equal digests, equal states. */
  digest: string;
}

/** The most differences one message lists; more are counted. */
const MAX_LISTED = 12;

/**
 * Creates the traveler in the travel API stand-in when it has not seen them yet (in `locale` when given),
 * and reads their state.
 */
export function ensureTraveler(
  admin: AdminClient,
  traveler: TestTraveler,
  options: { locale?: string } = {},
): Promise<TravelerState> {
  return admin.put<TravelerState>(`travelers/${traveler.id}`, {
    email: traveler.email,
    name: traveler.name,
    ...options,
  });
}

export function travelerState(admin: AdminClient, traveler: TestTraveler): Promise<TravelerState> {
  return admin.get<TravelerState>(`travelers/${traveler.id}`);
}

async function travelerDigest(admin: AdminClient, traveler: TestTraveler): Promise<string> {
  return (await admin.get<{ digest: string }>(`travelers/${traveler.id}/digest`)).digest;
}

/** Where two states of a traveler differ, one line per difference ("tables.travelers[0].locale: ..."). */
export function differences(before: unknown, after: unknown, path = ''): string[] {
  if (Object.is(before, after)) return [];
  const bothArrays = Array.isArray(before) && Array.isArray(after);
  const bothObjects =
    !bothArrays && isRecord(before) && isRecord(after) && !Array.isArray(before) && !Array.isArray(after);
  if (bothArrays) {
    const found: string[] = [];
    const shared = Math.min(before.length, after.length);
    for (let index = 0; index < shared; index += 1) {
      found.push(...differences(before[index], after[index], `${path}[${index}]`));
    }
    for (let index = shared; index < after.length; index += 1) {
      found.push(`${path}[${index}] added: ${shown(after[index])}`);
    }
    for (let index = shared; index < before.length; index += 1) {
      found.push(`${path}[${index}] removed: ${shown(before[index])}`);
    }
    return found;
  }
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => differences(before[key], after[key], path ? `${path}.${key}` : key));
  }
  return [`${path}: ${shown(before)} → ${shown(after)}`];
}

/**
 * Watches travelers that journeys share. `changes()` answers how they differ from when it last looked (or
 * from when the watch started), one line per difference, empty when nothing changed, and looks again from
 * there: each change is told once, by the first look after it.
 */
export class SharedTravelersWatch {
  readonly #admin: AdminClient;
  readonly #travelers: readonly TestTraveler[];
  readonly #last: TravelerState[];

  private constructor(admin: AdminClient, travelers: readonly TestTraveler[], states: TravelerState[]) {
    this.#admin = admin;
    this.#travelers = travelers;
    this.#last = states;
  }

  /** Makes sure the travel API has every one of the travelers, and remembers how they are now. */
  static async start(admin: AdminClient, travelers: readonly TestTraveler[]): Promise<SharedTravelersWatch> {
    const states = await Promise.all(travelers.map((traveler) => ensureTraveler(admin, traveler)));
    return new SharedTravelersWatch(admin, travelers, states);
  }

  get travelers(): readonly TestTraveler[] {
    return this.#travelers;
  }

  /** Reads the digests only, and a traveler's whole state only when their digest moved. */
  async changes(): Promise<string[]> {
    const digests = await Promise.all(
      this.#travelers.map((traveler) => travelerDigest(this.#admin, traveler)),
    );
    const found: string[] = [];
    for (const [index, traveler] of this.#travelers.entries()) {
      const before = this.#last[index];
      if (!before || before.digest === digests[index]) continue;
      const now = await travelerState(this.#admin, traveler);
      this.#last[index] = now;
      const lines = differences({ ...before, digest: '' }, { ...now, digest: '' });
      if (lines.length === 0) continue;
      const listed = lines.slice(0, MAX_LISTED).map((line) => `  ${line}`);
      const more = lines.length > MAX_LISTED ? [`  ...and ${lines.length - MAX_LISTED} more`] : [];
      found.push(`${traveler.name} (${traveler.email}) changed:`, ...listed, ...more);
    }
    return found;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}
