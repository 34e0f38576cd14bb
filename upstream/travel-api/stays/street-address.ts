import { createHash } from 'node:crypto';

/** How a country writes a street address: the street names its cities use, and where the number goes. */
interface StreetStyle {
  streets: readonly string[];
  format: (street: string, number: number) => string;
}

const numberAfterComma = (street: string, number: number) => `${street}, ${number}`;
const numberAfter = (street: string, number: number) => `${street} ${number}`;
const numberFirst = (street: string, number: number) => `${number} ${street}`;

const SPAIN: StreetStyle = {
  streets: [
    'Calle Mayor',
    'Calle del Carmen',
    'Avenida de la Constitución',
    'Calle de San Francisco',
    'Calle Real',
    'Calle de la Paz',
    'Paseo de la Estación',
    'Plaza de España',
    'Calle de Alfonso XII',
    'Avenida de América',
  ],
  format: numberAfterComma,
};
const LATIN_AMERICA: StreetStyle = {
  streets: [
    'Avenida Independencia',
    'Calle Bolívar',
    'Avenida San Martín',
    'Calle Hidalgo',
    'Avenida del Libertador',
    'Calle Morelos',
    'Avenida Juárez',
    'Calle Sucre',
    'Avenida de los Insurgentes',
    'Calle 25 de Mayo',
  ],
  format: numberAfter,
};
const PORTUGAL: StreetStyle = {
  streets: [
    'Rua Augusta',
    'Avenida da Liberdade',
    'Rua do Carmo',
    'Rua da Prata',
    'Avenida da República',
    'Rua Direita',
    'Rua das Flores',
    'Rua de Santa Catarina',
  ],
  format: numberAfterComma,
};
const BRAZIL: StreetStyle = {
  streets: [
    'Avenida Paulista',
    'Rua das Flores',
    'Rua XV de Novembro',
    'Avenida Brasil',
    'Rua da Consolação',
    'Avenida Atlântica',
    'Rua Sete de Setembro',
    'Avenida Rio Branco',
  ],
  format: numberAfterComma,
};
const FRANCE: StreetStyle = {
  streets: [
    'rue de la République',
    'avenue Jean-Jaurès',
    'rue Victor-Hugo',
    'boulevard Gambetta',
    'rue de la Paix',
    'place du Marché',
    'rue Nationale',
    'avenue de la Gare',
  ],
  format: numberFirst,
};
const BELGIUM: StreetStyle = {
  streets: [
    'Rue Neuve',
    'Avenue Louise',
    'Rue Royale',
    'Boulevard Anspach',
    'Rue du Marché',
    'Meir',
    'Kerkstraat',
    'Stationsstraat',
  ],
  format: numberAfter,
};
const ITALY: StreetStyle = {
  streets: [
    'Via Roma',
    'Via Garibaldi',
    'Corso Vittorio Emanuele II',
    'Via Dante',
    'Via Mazzini',
    'Piazza del Duomo',
    'Via Cavour',
    'Corso Italia',
  ],
  format: numberAfterComma,
};
const GERMAN_STREETS = [
  'Bahnhofstraße',
  'Hauptstraße',
  'Schillerstraße',
  'Goethestraße',
  'Marktplatz',
  'Kirchgasse',
  'Lindenallee',
  'Friedrichstraße',
];
const GERMANY: StreetStyle = { streets: GERMAN_STREETS, format: numberAfter };
/** Switzerland writes ss for ß. */
const SWITZERLAND: StreetStyle = {
  streets: GERMAN_STREETS.map((street) => street.replaceAll('ß', 'ss')),
  format: numberAfter,
};
const NETHERLANDS: StreetStyle = {
  streets: [
    'Kerkstraat',
    'Stationsweg',
    'Dorpsstraat',
    'Molenstraat',
    'Prinsengracht',
    'Marktplein',
    'Nieuwstraat',
    'Herengracht',
  ],
  format: numberAfter,
};
const BRITISH_ISLES: StreetStyle = {
  streets: [
    'High Street',
    'Station Road',
    'Church Street',
    'Victoria Road',
    'King Street',
    'Queen Street',
    'Park Lane',
    'Market Street',
  ],
  format: numberFirst,
};
const NORTH_AMERICA: StreetStyle = {
  streets: [
    'Main Street',
    'Broadway',
    'Market Street',
    'Park Avenue',
    'Washington Street',
    'Lake Street',
    'Oak Avenue',
    'Fifth Avenue',
  ],
  format: numberFirst,
};
const SWEDEN: StreetStyle = {
  streets: ['Storgatan', 'Drottninggatan', 'Kungsgatan', 'Vasagatan', 'Sveavägen', 'Järnvägsgatan'],
  format: numberAfter,
};
const NORWAY: StreetStyle = {
  streets: ['Storgata', 'Kirkegata', 'Karl Johans gate', 'Jernbanegata', 'Dronningens gate'],
  format: numberAfter,
};
const DENMARK: StreetStyle = {
  streets: ['Vesterbrogade', 'Nørregade', 'Østergade', 'Strøget', 'Bredgade', 'Jernbanegade'],
  format: numberAfter,
};
const POLAND: StreetStyle = {
  streets: ['ul. Marszałkowska', 'ul. Floriańska', 'ul. Długa', 'ul. Piłsudskiego', 'ul. Dworcowa'],
  format: numberAfter,
};
const CZECHIA: StreetStyle = {
  streets: ['Národní', 'Vodičkova', 'Na Příkopě', 'Karlova', 'Nádražní', 'Masarykova'],
  format: numberAfter,
};
const GREECE: StreetStyle = {
  streets: ['Ermou', 'Athinas', 'Panepistimiou', 'Stadiou', 'Akadimias', 'Mitropoleos'],
  format: numberAfter,
};
const TURKEY: StreetStyle = {
  streets: ['Cumhuriyet Caddesi', 'Atatürk Bulvarı', 'İstiklal Caddesi', 'İnönü Caddesi', 'Gazi Caddesi'],
  format: (street, number) => `${street} No: ${number}`,
};
/** Japanese addresses name a district and its block, building and unit numbers. */
const JAPAN: StreetStyle = {
  streets: ['Motomachi', 'Honchō', 'Ekimae', 'Sakaemachi', 'Chūō', 'Kotobukichō', 'Saiwaichō'],
  format: (district, number) => `${district} ${1 + (number % 5)}-${1 + (number % 23)}-${1 + (number % 9)}`,
};
/** English street names, as many cities of the Commonwealth, Asia and Africa write them. */
const ENGLISH_ROADS: StreetStyle = {
  streets: ['Station Road', 'Airport Road', 'Market Road', 'Main Road', 'Park Road', 'Central Avenue'],
  format: numberFirst,
};

const STYLES: Readonly<Record<string, StreetStyle>> = {
  ES: SPAIN,
  ...Object.fromEntries(
    [
      'MX',
      'AR',
      'CO',
      'CL',
      'PE',
      'UY',
      'VE',
      'EC',
      'BO',
      'PY',
      'CR',
      'PA',
      'GT',
      'HN',
      'SV',
      'NI',
      'DO',
      'CU',
    ].map((country) => [country, LATIN_AMERICA]),
  ),
  PT: PORTUGAL,
  BR: BRAZIL,
  FR: FRANCE,
  MC: FRANCE,
  LU: FRANCE,
  BE: BELGIUM,
  IT: ITALY,
  SM: ITALY,
  DE: GERMANY,
  AT: GERMANY,
  CH: SWITZERLAND,
  LI: SWITZERLAND,
  NL: NETHERLANDS,
  GB: BRITISH_ISLES,
  IE: BRITISH_ISLES,
  AU: BRITISH_ISLES,
  NZ: BRITISH_ISLES,
  US: NORTH_AMERICA,
  CA: NORTH_AMERICA,
  SE: SWEDEN,
  NO: NORWAY,
  DK: DENMARK,
  PL: POLAND,
  CZ: CZECHIA,
  GR: GREECE,
  CY: GREECE,
  TR: TURKEY,
  JP: JAPAN,
};

/** The street names a country's addresses use. */
export function streetsOf(countryCode: string): readonly string[] {
  return (STYLES[countryCode] ?? ENGLISH_ROADS).streets;
}

/** "Rua Augusta, 12, Lisbon", "12 rue de la Paix, Paris": a street and number as the country writes them. */
export function streetAddress(countryCode: string, street: string, number: number, city: string): string {
  return `${(STYLES[countryCode] ?? ENGLISH_ROADS).format(street, number)}, ${city}`;
}

/**
 * A stable street address in a city, as its country writes it, for a place no inventory lists (a demo
 * traveler's generated hotel or car depot): the street and number are derived from `seed` (the segment's
 * id), so the same place always has the same address. An unknown country gets an English one.
 */
export function derivedAddress(seed: string, countryCode: string, city: string): string {
  const digest = createHash('sha256').update(seed).digest();
  const streets = streetsOf(countryCode);
  return streetAddress(countryCode, streets[digest[0]! % streets.length]!, 1 + (digest[1]! % 180), city);
}
