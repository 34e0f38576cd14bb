/** A traveler of the identity stand-in reserved for the end-to-end suite (common.md, fixed wiring). */
export interface TestTraveler {
  id: string;
  email: string;
  password: string;
  name: string;
}

export const TEST_TRAVELER_COUNT = 8;

/** Test traveler `n` (1..8): `travelerN@wayfare.test`, sub `5f1c2a7e-0b1d-4c5e-9a01-1000000000NN`. */
export function testTraveler(n: number): TestTraveler {
  if (!Number.isInteger(n) || n < 1 || n > TEST_TRAVELER_COUNT) {
    throw new RangeError(`There are test travelers 1..${TEST_TRAVELER_COUNT}, not ${n}.`);
  }
  const nn = String(n).padStart(2, '0');
  return {
    id: `5f1c2a7e-0b1d-4c5e-9a01-1000000000${nn}`,
    email: `traveler${n}@wayfare.test`,
    password: 'test-pass',
    name: `Test Traveler ${n}`,
  };
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
