import { createHash, timingSafeEqual } from 'node:crypto';

export interface Account {
  /** The traveler id everywhere: the `sub` of every token. */
  sub: string;
  email: string;
  name: string;
  password: string;
  /** Shown on the sign-in page in demo mode, in each language the page is written in. */
  description?: { en: string; es: string };
}

/** Travelers shown on the sign-in page in demo mode. */
export const DEMO_ACCOUNTS: readonly Account[] = [
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
    email: 'alex@wayfare.example',
    name: 'Alex Morgan',
    password: 'alex-demo',
    description: { en: 'Business traveler', es: 'Viajero de negocios' },
  },
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000002',
    email: 'sam@wayfare.example',
    name: 'Sam Rivera',
    password: 'sam-demo',
    description: { en: 'Personal traveler', es: 'Viajero particular' },
  },
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000003',
    email: 'jordan@wayfare.example',
    name: 'Jordan Lee',
    password: 'jordan-demo',
    description: { en: 'Long booking history', es: 'Largo historial de reservas' },
  },
];

/** The highest number of a test traveler: `travelerN@wayfare.test` for N = 1..this (eleven digits). */
export const TEST_TRAVELER_MAX = 99_999_999_999;
const TEST_SUB_PREFIX = '5f1c2a7e-0b1d-4c5e-9a01-1';
const TEST_EMAIL = /^traveler([1-9]\d{0,10})@wayfare\.test$/;
const TEST_SUB = /^5f1c2a7e-0b1d-4c5e-9a01-1(\d{11})$/;

/**
 * Test traveler N, for the end-to-end suite: `travelerN@wayfare.test`, password `test-pass`, sub
 * `5f1c2a7e-0b1d-4c5e-9a01-1` and N in eleven digits. Every N exists without being registered, so that each
 * journey signs in as a traveler of its own and no two journeys share state.
 */
export function testAccount(number: number): Account | undefined {
  if (!Number.isSafeInteger(number) || number < 1 || number > TEST_TRAVELER_MAX) return undefined;
  return {
    sub: `${TEST_SUB_PREFIX}${String(number).padStart(11, '0')}`,
    email: `traveler${number}@wayfare.test`,
    name: `Test Traveler ${number}`,
    password: 'test-pass',
  };
}

const BY_SUB = new Map(DEMO_ACCOUNTS.map((account) => [account.sub, account]));
const BY_EMAIL = new Map(DEMO_ACCOUNTS.map((account) => [account.email, account]));

export function findAccountBySub(sub: string): Account | undefined {
  const test = TEST_SUB.exec(sub);
  return test ? testAccount(Number(test[1])) : BY_SUB.get(sub);
}

function findAccountByEmail(email: string): Account | undefined {
  const test = TEST_EMAIL.exec(email);
  return test ? testAccount(Number(test[1])) : BY_EMAIL.get(email);
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The account for these credentials, or undefined; the comparison takes the same time either way. */
export function authenticate(email: string, password: string): Account | undefined {
  const account = findAccountByEmail(email.trim().toLowerCase());
  const expected = digest(account?.password ?? 'no account has this password');
  const matches = timingSafeEqual(expected, digest(password));
  return account && matches ? account : undefined;
}
