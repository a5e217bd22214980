// Small fixed word lists for plausible values (no faker in the core): a property named `city` gets
// a city, `email` an address, `price` an amount. Each list is a constant; nothing runs at import.

export const WORDS = [
  'alpha', 'blue', 'cedar', 'delta', 'ember', 'forest', 'garden', 'harbor', 'island', 'journey', 'kernel', 'lantern',
  'meadow', 'north', 'orbit', 'pepper', 'quartz', 'river', 'signal', 'timber', 'union', 'valley', 'willow', 'yellow',
] as const

export const FIRST_NAMES = ['Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Tim', 'Katherine', 'John'] as const
export const LAST_NAMES = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Berners-Lee', 'Johnson', 'McCarthy'] as const

export const CITIES = ['Paris', 'London', 'Tokyo', 'New York', 'Berlin', 'Madrid', 'Toronto', 'Sydney', 'Lisbon', 'Seoul', 'Nairobi', 'Buenos Aires', 'Amsterdam', 'Mumbai']
export const COUNTRIES = ['France', 'United Kingdom', 'Japan', 'United States', 'Germany', 'Spain', 'Canada', 'Australia', 'Portugal', 'South Korea', 'Kenya', 'Argentina']
const COUNTRY_CODES = ['FR', 'GB', 'JP', 'US', 'DE', 'ES', 'CA', 'AU', 'PT', 'KR', 'KE', 'AR']
const STATES = ['California', 'Texas', 'Ontario', 'Bavaria', 'Catalonia', 'New South Wales', 'Queensland', 'Oregon']
const STREETS = ['221B Baker Street', '10 Downing Street', '1600 Amphitheatre Parkway', '4 Rue de Rivoli', '350 Fifth Avenue', '12 Calle Mayor']
const COMPANIES = ['Acme Corporation', 'Globex', 'Initech', 'Umbrella Labs', 'Stark Industries', 'Wayne Enterprises', 'Hooli']
const TITLES = ['Quarterly report', 'Getting started', 'Release notes', 'Meeting summary', 'Project plan', 'Weekly update']
const SENTENCES = [
  'The request was handled as expected.',
  'This is a short summary of the result.',
  'The weather is mild with a light breeze.',
  'All checks passed without any issue.',
  'The user asked for a concise answer.',
  'A simulated value that fits the schema.',
]
const QUERIES = ['weather today', 'best pizza nearby', 'flights to Tokyo', 'how to bake bread', 'latest news', 'hotels in Paris']
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD']
const LANGUAGES = ['English', 'French', 'Spanish', 'German', 'Japanese', 'Portuguese']
const LOCALES = ['en-US', 'fr-FR', 'es-ES', 'de-DE', 'ja-JP', 'pt-BR']
const UNITS = ['celsius', 'fahrenheit']
const LOCATIONS = ['Paris, France', 'Tokyo, Japan', 'New York, USA', 'Berlin, Germany', 'Sydney, Australia', 'Toronto, Canada', 'Lisbon, Portugal']
const PHONES = ['+1-555-0134', '+44 20 7946 0958', '+33 1 23 45 67 89', '+1-555-0199', '+81 3-1234-5678']
const ZIPS = ['94103', '10001', '75001', 'SW1A 1AA', '10115', '2000']

/** A hint: what kind of value a property's name asks for. */
export type Hint =
  | { kind: 'list'; values: readonly string[] }
  | { kind: 'name'; part: 'first' | 'last' | 'full' | 'user' }
  | { kind: 'email' | 'url' | 'uuid' | 'date' | 'date-time' }
  | { kind: 'number'; min: number; max: number; decimals: number }

const LIST_HINTS: ReadonlyArray<[readonly string[], readonly string[]]> = [
  [['city', 'town'], CITIES],
  [['country', 'country_name'], COUNTRIES],
  [['country_code', 'countrycode', 'country_iso'], COUNTRY_CODES],
  [['state', 'region', 'province'], STATES],
  [['address', 'street', 'street_address', 'address_line', 'address_line1'], STREETS],
  [['company', 'company_name', 'organization', 'organisation', 'employer'], COMPANIES],
  [['title', 'subject', 'headline'], TITLES],
  [['description', 'summary', 'reason', 'explanation', 'comment', 'notes', 'note', 'message', 'answer', 'reasoning', 'details'], SENTENCES],
  [['query', 'search', 'q', 'search_query', 'search_term', 'keywords', 'prompt'], QUERIES],
  [['currency', 'currency_code'], CURRENCIES],
  [['language', 'lang'], LANGUAGES],
  [['locale'], LOCALES],
  [['unit', 'units', 'temperature_unit', 'temp_unit'], UNITS],
  [['location', 'place', 'destination', 'origin', 'venue'], LOCATIONS],
  [['phone', 'phone_number', 'telephone', 'mobile', 'tel'], PHONES],
  [['zip', 'zip_code', 'zipcode', 'postal_code', 'postcode'], ZIPS],
]

const NUMBER_HINTS: ReadonlyArray<[readonly string[], Hint]> = [
  [['age'], { kind: 'number', min: 18, max: 90, decimals: 0 }],
  [['price', 'amount', 'cost', 'total', 'subtotal', 'balance', 'fee'], { kind: 'number', min: 1, max: 500, decimals: 2 }],
  [['latitude', 'lat'], { kind: 'number', min: -90, max: 90, decimals: 4 }],
  [['longitude', 'lon', 'lng', 'long'], { kind: 'number', min: -180, max: 180, decimals: 4 }],
  [['temperature', 'temp'], { kind: 'number', min: -10, max: 35, decimals: 1 }],
  [['count', 'quantity', 'qty', 'limit', 'max_results', 'num_results', 'top_k', 'n'], { kind: 'number', min: 1, max: 10, decimals: 0 }],
  [['year'], { kind: 'number', min: 1990, max: 2030, decimals: 0 }],
  [['rating', 'score', 'stars'], { kind: 'number', min: 1, max: 5, decimals: 0 }],
]

/** `cityName`, `City-Name` and `city_name` alike: snake_case in lower case. */
export function normalName(name: string): string {
  let normal = normals.get(name)
  if (normal === undefined) {
    normal = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase()
    if (normals.size >= 1_024) normals.clear()
    normals.set(name, normal)
  }
  return normal
}

/** Property names as normalName made them: a schema's few names are met on every value made from it. A function of the name alone. */
const normals = new Map<string, string>()

/** The hint a string property's name gives, if any. */
export function stringHint(name: string): Hint | undefined {
  const n = normalName(name)
  if (n === '') return undefined
  for (const [names, values] of LIST_HINTS) if (names.includes(n)) return { kind: 'list', values }
  if (n === 'email' || n.endsWith('_email') || n === 'email_address') return { kind: 'email' }
  if (n === 'first_name' || n === 'given_name' || n === 'firstname') return { kind: 'name', part: 'first' }
  if (n === 'last_name' || n === 'surname' || n === 'family_name' || n === 'lastname') return { kind: 'name', part: 'last' }
  if (n === 'username' || n === 'user_name' || n === 'handle' || n === 'login') return { kind: 'name', part: 'user' }
  if (n === 'name' || n === 'full_name' || n === 'fullname' || n === 'author' || n === 'customer_name' || n === 'person') return { kind: 'name', part: 'full' }
  if (n === 'url' || n === 'website' || n === 'homepage' || n === 'link' || n.endsWith('_url')) return { kind: 'url' }
  if (n === 'id' || n === 'uuid' || n === 'guid' || n.endsWith('_id') || n.endsWith('_uuid')) return { kind: 'uuid' }
  if (n === 'date' || n.endsWith('_date') || n === 'birthday' || n === 'dob' || n === 'day') return { kind: 'date' }
  if (n.endsWith('_at') || n === 'timestamp' || n === 'datetime' || n.endsWith('_time')) return { kind: 'date-time' }
  const last = n.slice(n.lastIndexOf('_') + 1)
  if (last !== n) return stringHint(last)
  return undefined
}

/** The hint a number or integer property's name gives, if any. */
export function numberHint(name: string): Extract<Hint, { kind: 'number' }> | undefined {
  const n = normalName(name)
  for (const [names, hint] of NUMBER_HINTS) if (names.includes(n)) return hint as Extract<Hint, { kind: 'number' }>
  if (n === 'id' || n.endsWith('_id')) return { kind: 'number', min: 1, max: 9999, decimals: 0 }
  const last = n.slice(n.lastIndexOf('_') + 1)
  if (last !== n && last !== 'id') return numberHint(last)
  return undefined
}

/** `cities` -> `city`, `tags` -> `tag`: an array's items are named after the array. */
export function singular(name: string): string {
  if (/ies$/i.test(name)) return `${name.slice(0, -3)}y`
  if (/(ss|us)$/i.test(name)) return name
  if (/s$/i.test(name)) return name.slice(0, -1)
  return name
}
