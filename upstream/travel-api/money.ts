/** Units of each currency per euro: fixed, so that generated prices stay deterministic. */
const RATES: Record<string, number> = {
  EUR: 1,
  USD: 1.08,
  GBP: 0.85,
  CHF: 0.95,
  JPY: 160,
  CAD: 1.47,
  AUD: 1.63,
};

/** Converts a euro amount and rounds it to the currency's minor unit. */
export function fromEuros(amountEur: number, currency: string): number {
  const amount = amountEur * (RATES[currency] ?? 1);
  return currency === 'JPY' ? Math.round(amount) : Math.round(amount * 100) / 100;
}
