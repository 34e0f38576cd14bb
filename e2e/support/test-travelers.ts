/** A traveler of the identity stand-in the end-to-end suite signs in as. */
export interface TestTraveler {
  id: string;
  email: string;
  password: string;
  name: string;
}

/** The highest N of a test traveler (upstream/identity/accounts.ts: eleven digits). */
export const TEST_TRAVELER_MAX = 99_999_999_999;

/**
 * Test traveler `n`: `travelerN@wayfare.test`, sub `5f1c2a7e-0b1d-4c5e-9a01-1` and N in eleven digits. The
 * identity stand-in knows every N without registering it, and the travel API generates the traveler's
 * profile, trips and bookings the first time it sees them.
 */
export function testTraveler(n: number): TestTraveler {
  if (!Number.isSafeInteger(n) || n < 1 || n > TEST_TRAVELER_MAX) {
    throw new RangeError(`There are test travelers 1..${TEST_TRAVELER_MAX}, not ${n}.`);
  }
  return {
    id: `5f1c2a7e-0b1d-4c5e-9a01-1${String(n).padStart(11, '0')}`,
    email: `traveler${n}@wayfare.test`,
    password: 'test-pass',
    name: `Test Traveler ${n}`,
  };
}

/** How many journey travelers one worker can hand out (travelers 1..this-1 are left to other uses). */
const PER_WORKER = 1_000_000;

/**
 * The `ordinal`-th traveler (0, 1, ...) handed out by the worker with this index: no other worker of the
 * run, and no other call of this worker, gets the same one. A worker that replaces a failed one has a new
 * index, so it never reuses a traveler either.
 */
export function journeyTraveler(workerIndex: number, ordinal: number): TestTraveler {
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= PER_WORKER) {
    throw new RangeError(`A worker hands out travelers 0..${PER_WORKER - 1}, not ${ordinal}.`);
  }
  return testTraveler((workerIndex + 1) * PER_WORKER + ordinal);
}

/** The demo traveler with the long booking history (120+ bookings); the suite only reads his data. */
export const JORDAN: TestTraveler = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000003',
  email: 'jordan@wayfare.example',
  password: 'jordan-demo',
  name: 'Jordan Lee',
};

/** The demo business traveler; the suite only reads her data. */
export const ALEX: TestTraveler = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
  email: 'alex@wayfare.example',
  password: 'alex-demo',
  name: 'Alex Morgan',
};

/** The demo personal traveler; the suite only reads their data. */
export const SAM: TestTraveler = {
  id: '5f1c2a7e-0b1d-4c5e-9a01-000000000002',
  email: 'sam@wayfare.example',
  password: 'sam-demo',
  name: 'Sam Rivera',
};

/** The travelers journeys share: they only read them, and the fixtures prove they leave them unchanged. */
export const SHARED_TRAVELERS: readonly TestTraveler[] = [ALEX, SAM, JORDAN];
