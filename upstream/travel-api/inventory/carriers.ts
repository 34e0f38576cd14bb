import type { Carrier } from '#shared/upstream/flights.ts';

/** The stand-in's airlines: invented names, so that no generated flight passes for a real one. */
export const CARRIERS: readonly Carrier[] = [
  { code: 'WF', name: 'Wayfare Air' },
  { code: 'NW', name: 'Northwind Airways' },
  { code: 'AZ', name: 'Azure Atlantic' },
  { code: 'MR', name: 'Meridian Air' },
  { code: 'SK', name: 'Skylark Airlines' },
  { code: 'PO', name: 'Polaris Airways' },
  { code: 'CL', name: 'Cirrus Line' },
  { code: 'HR', name: 'Horizon Regional' },
  { code: 'TL', name: 'Trade Winds Airlines' },
  { code: 'AU', name: 'Aurora Airlines' },
];

export const AIRCRAFT = {
  regional: ['Embraer E190', 'Airbus A220-300', 'ATR 72-600'],
  narrow: ['Airbus A320neo', 'Boeing 737-800', 'Airbus A321neo', 'Boeing 737 MAX 8'],
  wide: ['Boeing 787-9', 'Airbus A350-900', 'Boeing 777-300ER', 'Airbus A330-300'],
} as const;
