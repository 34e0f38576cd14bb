/** Units of each currency per euro: fixed, so that generated prices stay deterministic. */
const RATES: Readonly<Record<string, number>> = {
  EUR: 1,
  USD: 1.08,
  GBP: 0.85,
  CHF: 0.95,
  JPY: 160,
  CAD: 1.47,
  AUD: 1.63,
  NZD: 1.8,
  CZK: 25,
  PLN: 4.3,
  HUF: 395,
  SEK: 11.4,
  NOK: 11.7,
  DKK: 7.46,
  ISK: 150,
  RON: 4.97,
  RSD: 117,
  BAM: 1.96,
  MKD: 61.5,
  TRY: 38,
  AED: 3.97,
  QAR: 3.93,
  SAR: 4.05,
  BHD: 0.407,
  KWD: 0.332,
  OMR: 0.416,
  JOD: 0.766,
  ILS: 4,
  EGP: 53,
  MAD: 10.8,
  ZAR: 20,
  KES: 140,
  INR: 90,
  SGD: 1.46,
  MYR: 5,
  THB: 38,
  IDR: 17_500,
  PHP: 62,
  VND: 27_500,
  CNY: 7.8,
  HKD: 8.45,
  MOP: 8.7,
  KRW: 1480,
  TWD: 35,
  MXN: 20,
  BRL: 6,
  CLP: 1020,
  COP: 4400,
  PEN: 4.05,
};

/** ISO 4217 minor units where they are not 2. */
const MINOR_UNITS: Readonly<Record<string, number>> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
};

/** The euro area on 1 January 2026 (Bulgaria the latest to join), and the places that use the euro. */
const EURO_COUNTRIES = [
  ...['AT', 'BE', 'BG', 'HR', 'CY', 'EE', 'FI', 'FR', 'DE', 'GR', 'IE', 'IT', 'LV', 'LT', 'LU', 'MT'],
  ...['NL', 'PT', 'SK', 'SI', 'ES'],
  ...['AD', 'MC', 'SM', 'VA', 'ME', 'AX', 'GP', 'MQ', 'GF', 'RE', 'YT', 'PM', 'BL', 'MF'],
];

/** Each country's own currency, among those the service prices in (ISO 3166-1 alpha-2 -> ISO 4217). */
const LOCAL_CURRENCIES: Readonly<Record<string, string>> = {
  ...Object.fromEntries(EURO_COUNTRIES.map((country) => [country, 'EUR'])),
  US: 'USD',
  PR: 'USD',
  GU: 'USD',
  VI: 'USD',
  GB: 'GBP',
  IM: 'GBP',
  JE: 'GBP',
  GG: 'GBP',
  CH: 'CHF',
  LI: 'CHF',
  JP: 'JPY',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  CZ: 'CZK',
  PL: 'PLN',
  HU: 'HUF',
  SE: 'SEK',
  NO: 'NOK',
  SJ: 'NOK',
  DK: 'DKK',
  FO: 'DKK',
  GL: 'DKK',
  IS: 'ISK',
  RO: 'RON',
  RS: 'RSD',
  BA: 'BAM',
  MK: 'MKD',
  TR: 'TRY',
  AE: 'AED',
  QA: 'QAR',
  SA: 'SAR',
  BH: 'BHD',
  KW: 'KWD',
  OM: 'OMR',
  JO: 'JOD',
  IL: 'ILS',
  EG: 'EGP',
  MA: 'MAD',
  ZA: 'ZAR',
  KE: 'KES',
  IN: 'INR',
  SG: 'SGD',
  MY: 'MYR',
  TH: 'THB',
  ID: 'IDR',
  PH: 'PHP',
  VN: 'VND',
  CN: 'CNY',
  HK: 'HKD',
  MO: 'MOP',
  KR: 'KRW',
  TW: 'TWD',
  MX: 'MXN',
  BR: 'BRL',
  CL: 'CLP',
  CO: 'COP',
  PE: 'PEN',
};

/**
 * Currencies with a fixed euro rate: those a traveler may choose for flights and the profile (CURRENCIES
 * of the flights contract) and the local currencies hotels price in.
 */
export const RATED_CURRENCIES: readonly string[] = Object.keys(RATES);

/** The currency hotels of a country price in: its own when the service prices in it, else US dollars. */
export function localCurrencyOf(countryCode: string): string {
  return LOCAL_CURRENCIES[countryCode] ?? 'USD';
}

/** Converts a euro amount and rounds it to the currency's minor unit. */
export function fromEuros(amountEur: number, currency: string): number {
  return roundToMinorUnit(amountEur * (RATES[currency] ?? 1), currency);
}

/** Rounds an amount to the currency's minor unit (cents, or whole yen). */
export function roundToMinorUnit(amount: number, currency: string): number {
  const factor = 10 ** (MINOR_UNITS[currency] ?? 2);
  return Math.round(amount * factor) / factor;
}
