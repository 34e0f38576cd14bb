/**
 * The 249 country codes ISO 3166-1 alpha-2 assigns today. Withdrawn codes (DD East Germany, SU, YU,
 * CS, AN Netherlands Antilles, ...), exceptionally reserved ones (EU, UK, AC, IC, ...) and user-assigned
 * ones (XK, ZZ, ...) are not country codes the service hands out.
 */
export const ISO_COUNTRY_CODES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT ' +
    'BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ' +
    'ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT ' +
    'HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS ' +
    'LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI ' +
    'NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG ' +
    'SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

/**
 * Country names the airport data (OpenFlights) spells differently from the platform's current English
 * region names: former and short names ("Czech Republic", "Swaziland", "Burma", "Turkey"), "and" for
 * "&", "Saint" for "St.", and territories it names on their own ("Hong Kong", "Macau", "West Bank").
 */
const ALTERNATE_NAMES: Readonly<Record<string, string>> = {
  'Antigua and Barbuda': 'AG',
  'Bosnia and Herzegovina': 'BA',
  Burma: 'MM',
  "Cote d'Ivoire": 'CI',
  'Congo (Brazzaville)': 'CG',
  'Congo (Kinshasa)': 'CD',
  'Czech Republic': 'CZ',
  'East Timor': 'TL',
  'Hong Kong': 'HK',
  'Johnston Atoll': 'UM',
  Macau: 'MO',
  Macedonia: 'MK',
  'Midway Islands': 'UM',
  Myanmar: 'MM',
  Palestine: 'PS',
  Reunion: 'RE',
  'Saint Helena': 'SH',
  'Saint Kitts and Nevis': 'KN',
  'Saint Lucia': 'LC',
  'Saint Pierre and Miquelon': 'PM',
  'Saint Vincent and the Grenadines': 'VC',
  'Sao Tome and Principe': 'ST',
  Svalbard: 'SJ',
  Swaziland: 'SZ',
  'Trinidad and Tobago': 'TT',
  Turkey: 'TR',
  'Turks and Caicos Islands': 'TC',
  'Virgin Islands': 'VI',
  'Wake Island': 'UM',
  'Wallis and Futuna': 'WF',
  'West Bank': 'PS',
};

/**
 * Airports of a country that no longer exists, by IATA code: the Netherlands Antilles split in 2010
 * into Curaçao, Sint Maarten and the Caribbean Netherlands (Bonaire, Sint Eustatius, Saba).
 */
const DISSOLVED_COUNTRY_AIRPORTS: Readonly<Record<string, string>> = {
  BON: 'BQ',
  CUR: 'CW',
  EUX: 'BQ',
  SAB: 'BQ',
  SXM: 'SX',
};

/** Current English region names of the platform, for the assigned codes only. */
function currentNames(): Map<string, string> {
  const names = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });
  const codes = new Map<string, string>();
  for (const code of ISO_COUNTRY_CODES) {
    const name = names.of(code);
    if (name) codes.set(name, code);
  }
  return codes;
}

/**
 * Resolves the country of an airport, as the airport data names it, to its current ISO 3166-1 alpha-2
 * code, or null when the name is not a country's.
 */
export function createCountryCodeResolver(): (country: string, airportCode: string) => string | null {
  const byName = currentNames();
  return (country, airportCode) =>
    DISSOLVED_COUNTRY_AIRPORTS[airportCode] ?? ALTERNATE_NAMES[country] ?? byName.get(country) ?? null;
}
