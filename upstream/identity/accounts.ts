import { createHash, timingSafeEqual } from 'node:crypto';

export interface Account {
  /** The traveler id everywhere: the `sub` of every token. */
  sub: string;
  email: string;
  name: string;
  password: string;
  /** Shown on the sign-in page in demo mode. */
  description?: string;
}

/** Travelers shown on the sign-in page in demo mode. */
export const DEMO_ACCOUNTS: readonly Account[] = [
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000001',
    email: 'alex@wayfare.example',
    name: 'Alex Morgan',
    password: 'alex-demo',
    description: 'Business traveler',
  },
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000002',
    email: 'sam@wayfare.example',
    name: 'Sam Rivera',
    password: 'sam-demo',
    description: 'Personal traveler',
  },
  {
    sub: '5f1c2a7e-0b1d-4c5e-9a01-000000000003',
    email: 'jordan@wayfare.example',
    name: 'Jordan Lee',
    password: 'jordan-demo',
    description: 'Long booking history',
  },
];

/** One traveler per end-to-end worker, so parallel journeys never share state. */
export const TEST_ACCOUNTS: readonly Account[] = Array.from({ length: 8 }, (_, index) => {
  const number = index + 1;
  return {
    sub: `5f1c2a7e-0b1d-4c5e-9a01-1000000000${String(number).padStart(2, '0')}`,
    email: `traveler${number}@wayfare.test`,
    name: `Test Traveler ${number}`,
    password: 'test-pass',
  };
});

const ACCOUNTS = [...DEMO_ACCOUNTS, ...TEST_ACCOUNTS];
const BY_SUB = new Map(ACCOUNTS.map((account) => [account.sub, account]));
const BY_EMAIL = new Map(ACCOUNTS.map((account) => [account.email, account]));

export function findAccountBySub(sub: string): Account | undefined {
  return BY_SUB.get(sub);
}

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** The account for these credentials, or undefined; the comparison takes the same time either way. */
export function authenticate(email: string, password: string): Account | undefined {
  const account = BY_EMAIL.get(email.trim().toLowerCase());
  const expected = digest(account?.password ?? 'no account has this password');
  const matches = timingSafeEqual(expected, digest(password));
  return account && matches ? account : undefined;
}
