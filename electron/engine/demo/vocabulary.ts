// The demo generator's world: three organisations with their people, capabilities, documents
// and the phrasing of the facts an agent would record about them. Plain data; the generator
// draws from it with a seeded Rng. Wording is chosen so the engine's inference (correction
// cues, scope cues, policy language, time-sensitive keys) fires only where a template means it.
import type { ConstraintType, Maturity } from '../../../shared/domain';
import type { Rng } from './prng';

export interface DemoUser {
  readonly id: string;
  readonly name: string;
  readonly authority: 'employee' | 'manager' | 'executive';
  readonly department: string;
  readonly permissions: readonly string[];
  readonly timezone: string;
  readonly style: string;
}

export interface DemoCapability {
  readonly name: string;
  readonly maturity: Maturity;
  readonly events: readonly string[];
  readonly heuristics: readonly string[];
  readonly strategies: readonly string[];
}

export interface DemoDocument {
  readonly title: string;
  readonly body: string;
  readonly acl: readonly string[];
}

export interface DemoOrg {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  readonly cities: readonly string[];
  readonly vendors: readonly string[];
  readonly projects: readonly string[];
  readonly topics: readonly string[];
  readonly tools: readonly string[];
  /** The org's main tracked thing: shipments, samples, cases. */
  readonly entity: { readonly noun: string; readonly code: string; readonly holder: string; readonly states: readonly string[] };
  readonly unit: string;
  readonly users: readonly DemoUser[];
  readonly capabilities: readonly DemoCapability[];
  readonly documents: readonly DemoDocument[];
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'] as const;
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
const PEOPLE = [
  'Maria Lopez',
  'Jonas Berg',
  'Chloe Martin',
  'Ravi Iyer',
  'Nora Hansen',
  'Omar Haddad',
  'Julia Novak',
  'Sam Carter',
  'Ines Duarte',
  'Felix Wagner',
  'Yuki Sato',
  'Grace Kim',
];
const HOTELS = ['Harbour Hotel', 'Grand Central', 'Riverside Inn', 'Parkview Suites', 'Station Hotel', 'Old Town Lodge'];

export const ORGS: readonly DemoOrg[] = [
  {
    id: 'northwind',
    name: 'Northwind Logistics',
    currency: '$',
    cities: ['Rotterdam', 'Hamburg', 'Antwerp', 'Singapore', 'Savannah', 'Lisbon'],
    vendors: ['Maersk Line', 'Hapag-Lloyd', 'CMA CGM', 'DHL Freight', 'Kuehne+Nagel', 'DB Schenker'],
    projects: ['Atlas', 'Borealis', 'Cedar'],
    topics: ['carrier review', 'customs audit', 'peak season planning', 'warehouse layout', 'route planning'],
    tools: ['TMS', 'WMS', 'customs portal'],
    entity: {
      noun: 'shipment',
      code: 'SH',
      holder: 'carrier',
      states: [
        'Booked and waiting for pickup',
        'In transit via {city}',
        'Held at customs in {city}',
        'Delivered to the {city} warehouse',
        'Delayed two days by port congestion in {city}',
      ],
    },
    unit: 'pallet',
    users: [
      {
        id: 'ann.keller',
        name: 'Ann Keller',
        authority: 'employee',
        department: 'Operations',
        permissions: ['operations'],
        timezone: 'Europe/Amsterdam',
        style: 'short written summaries',
      },
      {
        id: 'marco.rossi',
        name: 'Marco Rossi',
        authority: 'manager',
        department: 'Procurement',
        permissions: ['procurement', 'finance'],
        timezone: 'Europe/Rome',
        style: 'bullet points with numbers',
      },
      {
        id: 'lena.fischer',
        name: 'Lena Fischer',
        authority: 'executive',
        department: 'Executive',
        permissions: ['executive', 'finance', 'hr'],
        timezone: 'Europe/Berlin',
        style: 'one-paragraph briefs',
      },
      {
        id: 'tom.baker',
        name: 'Tom Baker',
        authority: 'employee',
        department: 'Finance',
        permissions: ['finance'],
        timezone: 'America/New_York',
        style: 'tables',
      },
      {
        id: 'priya.nair',
        name: 'Priya Nair',
        authority: 'employee',
        department: 'Engineering',
        permissions: ['engineering'],
        timezone: 'Asia/Singapore',
        style: 'links to tickets',
      },
    ],
    capabilities: [
      {
        name: 'freight-booking',
        maturity: 'junior',
        events: [
          'booking {code} with {vendor} confirmed on the first attempt',
          'booking {code} rejected by {vendor}: no space on the {city} sailing',
          'booking {code} rebooked from {city} to a later sailing',
        ],
        heuristics: ['bookings with {vendor} usually confirm within {n} hours'],
        strategies: ['split bookings above {n} containers across two carriers'],
      },
      {
        name: 'carrier-negotiation',
        maturity: 'senior',
        events: ['{vendor} accepted a {n}% volume discount on the {city} lane', '{vendor} declined to match the {city} quote'],
        heuristics: [
          '{vendor} moves on rates when shown volume for the {city} lane',
          'quotes from {vendor} soften in the last week of the quarter',
          'bundling {city} and {city2} lanes gets better terms from {vendor}',
        ],
        strategies: ['open with the three-carrier benchmark before naming volume'],
      },
      {
        name: 'incident-triage',
        maturity: 'master',
        events: ['incident {code}: scanner outage at the {city} warehouse resolved in {n} minutes', 'incident {code}: label printer fault in {city}'],
        heuristics: ['scanner outages in {city} follow firmware pushes', 'night-shift incidents in {city} cluster around shift handover'],
        strategies: ['page the site lead first for any {city} outage longer than {n} minutes', 'roll back firmware before replacing hardware'],
      },
    ],
    documents: [
      {
        title: 'Travel and expenses handbook 2026',
        body: 'Economy class for flights under six hours. Hotels from the approved list. Submit receipts within 30 days.',
        acl: [],
      },
      {
        title: 'Carrier contract terms (confidential)',
        body: 'Volume commitments and rebate schedules for each carrier, renegotiated every January.',
        acl: ['procurement', 'finance'],
      },
      { title: 'Board pack: Q3 results', body: 'Revenue, margin by lane, the Atlas investment case and the hiring plan.', acl: ['executive'] },
      { title: 'Salary bands and review calendar', body: 'Bands by grade and the annual review calendar.', acl: ['hr'] },
      { title: 'Warehouse incident runbook', body: 'Who to page, how to fail over scanners, and how to report an outage.', acl: ['operations', 'engineering'] },
    ],
  },
  {
    id: 'helix',
    name: 'Helix Biotech',
    currency: '€',
    cities: ['Basel', 'Boston', 'Cambridge', 'Leiden', 'San Diego'],
    vendors: ['Thermo Fisher', 'Illumina', 'Sartorius', 'Qiagen', 'Lonza'],
    projects: ['HX-201 trial', 'Mercury assay', 'Orion biobank'],
    topics: ['trial site review', 'assay validation', 'grant reporting', 'lab safety', 'biobank intake'],
    tools: ['LIMS', 'ELN', 'eTMF'],
    entity: {
      noun: 'sample',
      code: 'SMP',
      holder: 'courier',
      states: [
        'Registered and waiting for courier pickup',
        'In transit to the {city} lab',
        'Received and logged in {city}',
        'Queued for sequencing in {city}',
        'Rejected on arrival in {city}: temperature log missing',
      ],
    },
    unit: 'kit',
    users: [
      {
        id: 'sofia.moreau',
        name: 'Sofia Moreau',
        authority: 'employee',
        department: 'Research',
        permissions: ['research'],
        timezone: 'Europe/Zurich',
        style: 'detailed written notes',
      },
      {
        id: 'daniel.okafor',
        name: 'Daniel Okafor',
        authority: 'manager',
        department: 'Clinical Operations',
        permissions: ['clinical', 'finance'],
        timezone: 'America/New_York',
        style: 'short status lines',
      },
      {
        id: 'hannah.wright',
        name: 'Hannah Wright',
        authority: 'executive',
        department: 'Executive',
        permissions: ['executive', 'finance', 'hr', 'regulatory'],
        timezone: 'America/New_York',
        style: 'decisions first',
      },
      {
        id: 'kenji.watanabe',
        name: 'Kenji Watanabe',
        authority: 'employee',
        department: 'Lab Operations',
        permissions: ['lab'],
        timezone: 'America/Los_Angeles',
        style: 'checklists',
      },
      {
        id: 'eva.lindqvist',
        name: 'Eva Lindqvist',
        authority: 'employee',
        department: 'Regulatory Affairs',
        permissions: ['regulatory'],
        timezone: 'Europe/Amsterdam',
        style: 'citations to the source document',
      },
    ],
    capabilities: [
      {
        name: 'lab-scheduling',
        maturity: 'junior',
        events: ['run {code} booked on the {city} sequencer for {n} samples', 'run {code} moved after a {vendor} reagent delivery slipped'],
        heuristics: ['Monday runs in {city} start late after weekend maintenance'],
        strategies: ['keep one sequencer slot free per week for repeats'],
      },
      {
        name: 'grant-reporting',
        maturity: 'senior',
        events: ['report {code} sent to the funder with {n} annexes', 'report {code} returned with questions on {city} spending'],
        heuristics: ['funders ask for {city} site numbers broken out by quarter', 'annex tables need the {vendor} invoices attached'],
        strategies: ['write the narrative after the numbers are frozen'],
      },
      {
        name: 'clinical-data-review',
        maturity: 'master',
        events: ['query {code} raised on visit data from the {city} site', 'query {code} closed after source verification in {city}'],
        heuristics: ['visit dates from the {city} site lag the eCRF by {n} days'],
        strategies: ['review outliers site by site before pooling', 'freeze the dictionary version before interim analysis'],
      },
    ],
    documents: [
      { title: 'Lab safety manual', body: 'Biosafety levels, spill response and waste handling for every site.', acl: [] },
      { title: 'HX-201 protocol amendment 3', body: 'Revised inclusion criteria and visit schedule for the HX-201 trial.', acl: ['clinical', 'regulatory'] },
      { title: 'Grant budget tracker', body: 'Committed and spent funds per grant, per site, per quarter.', acl: ['finance'] },
      { title: 'Executive committee minutes', body: 'Portfolio decisions and partnering discussions.', acl: ['executive'] },
    ],
  },
  {
    id: 'orbit',
    name: 'Orbit Fintech',
    currency: '£',
    cities: ['London', 'Dublin', 'Warsaw', 'Toronto', 'Singapore'],
    vendors: ['Stripe', 'Adyen', 'Plaid', 'Onfido', 'Snowflake'],
    projects: ['Payments v3', 'Ledger migration', 'Card issuing'],
    topics: ['release review', 'fraud review', 'vendor review', 'audit prep', 'capacity planning'],
    tools: ['core ledger', 'risk engine', 'data warehouse'],
    entity: {
      noun: 'kyc_case',
      code: 'KYC',
      holder: 'analyst',
      states: [
        'Opened, documents requested',
        'Documents received from the {city} client',
        'Escalated to the {city} risk team',
        'Approved after enhanced checks',
        'On hold pending proof of address',
      ],
    },
    unit: 'seat',
    users: [
      {
        id: 'james.obrien',
        name: "James O'Brien",
        authority: 'employee',
        department: 'Customer Success',
        permissions: ['support'],
        timezone: 'Europe/Dublin',
        style: 'friendly and brief',
      },
      {
        id: 'aisha.khan',
        name: 'Aisha Khan',
        authority: 'manager',
        department: 'Risk and Compliance',
        permissions: ['risk', 'compliance'],
        timezone: 'Europe/London',
        style: 'risk first, then options',
      },
      {
        id: 'victor.hale',
        name: 'Victor Hale',
        authority: 'executive',
        department: 'Finance',
        permissions: ['executive', 'finance'],
        timezone: 'Europe/London',
        style: 'numbers only',
      },
      {
        id: 'mei.chen',
        name: 'Mei Chen',
        authority: 'employee',
        department: 'Engineering',
        permissions: ['engineering'],
        timezone: 'America/Toronto',
        style: 'diffs and ticket links',
      },
      {
        id: 'lucas.silva',
        name: 'Lucas Silva',
        authority: 'employee',
        department: 'Finance',
        permissions: ['finance'],
        timezone: 'Europe/Warsaw',
        style: 'spreadsheets',
      },
    ],
    capabilities: [
      {
        name: 'expense-audit',
        maturity: 'junior',
        events: ['claim {code} flagged: hotel in {city} above the nightly rate card', 'claim {code} approved with {n} receipts'],
        heuristics: ['claims from {city} offsites often miss itemised receipts'],
        strategies: ['sample ten percent of claims under the approval threshold'],
      },
      {
        name: 'kyc-review',
        maturity: 'senior',
        events: ['case {code} cleared by {vendor} document check', 'case {code} failed the {vendor} liveness check'],
        heuristics: ['{vendor} liveness checks fail more often on older phones', 'clients onboarded in {city} need proof of address translated'],
        strategies: ['run sanctions screening before the document check'],
      },
      {
        name: 'release-management',
        maturity: 'master',
        events: ['release {code} shipped to {city} with {n} migrations', 'release {code} rolled back after a {vendor} webhook timeout'],
        heuristics: ['Friday releases roll back twice as often', 'migrations over {n} minutes need a maintenance window'],
        strategies: ['ship schema changes one release ahead of the code that needs them', 'canary in {city} before the global rollout'],
      },
    ],
    documents: [
      { title: 'Code of conduct', body: 'How we work with clients, regulators and each other.', acl: [] },
      { title: 'Risk appetite statement', body: 'Limits per product and the escalation path for breaches.', acl: ['risk', 'executive'] },
      { title: 'Payroll calendar and bands', body: 'Payroll dates and salary bands by level.', acl: ['hr', 'finance'] },
      { title: 'Incident post-mortems', body: 'Timelines and actions for every severity-one incident this year.', acl: ['engineering'] },
    ],
  },
];

/** Fills {city}, {city2}, {vendor}, {code}, {n}, {person} placeholders. */
export function fill(rng: Rng, org: DemoOrg, text: string, code: string): string {
  const [city, city2] = rng.sample(org.cities, 2);
  return text
    .replace(/\{city\}/g, city ?? org.cities[0] ?? '')
    .replace(/\{city2\}/g, city2 ?? org.cities[0] ?? '')
    .replace(/\{vendor\}/g, rng.pick(org.vendors))
    .replace(/\{code\}/g, code)
    .replace(/\{n\}/g, String(rng.int(2, 48)))
    .replace(/\{person\}/g, rng.pick(PEOPLE));
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function money(rng: Rng, org: DemoOrg, min: number, max: number, step: number): string {
  const amount = Math.round(rng.int(min, max) / step) * step;
  return `${org.currency}${amount.toLocaleString('en-US')}`;
}

/** One kind of fact an agent records about a user: how its key and value look. */
export interface FactTemplate {
  readonly name: string;
  /** True when the key names something that changes with time (the temporal rule applies). */
  readonly timeSensitive: boolean;
  /** How often an agent records this kind of fact, relative to others (default 1). */
  readonly weight?: number;
  /** A key; `n` is a running number so entity codes never repeat. */
  key(rng: Rng, org: DemoOrg, n: number): string;
  value(rng: Rng, org: DemoOrg): string;
}

const PREFERENCES: Readonly<Record<string, readonly string[]>> = {
  communication: [
    'Prefers short written summaries',
    'Prefers a quick call before decisions',
    'Prefers chat over email',
    'Prefers a weekly digest to single messages',
  ],
  meeting_hours: ['Prefers meetings before 10:00', 'Prefers afternoon meetings', 'Keeps Friday afternoons free of meetings', 'Prefers meetings after lunch'],
  report_format: [
    'Wants figures in a table with last quarter beside them',
    'Wants a one-page brief with the decision first',
    'Wants slides only for the board',
  ],
  travel_seat: ['Books aisle seats on flights', 'Books window seats on flights', 'Takes the train for trips under four hours'],
};

export const USER_TEMPLATES: readonly FactTemplate[] = [
  {
    name: 'entity holder',
    weight: 5,
    timeSensitive: false,
    key: (_r, org, n) => `${org.entity.noun}.${org.entity.code}-${10000 + n}.${org.entity.holder}`,
    value: (r, org) => `${org.entity.code === 'KYC' ? r.pick(PEOPLE) : r.pick(org.vendors)} handles it out of ${r.pick(org.cities)}`,
  },
  {
    name: 'entity status',
    weight: 4,
    timeSensitive: true,
    key: (_r, org, n) => `${org.entity.noun}.${org.entity.code}-${10000 + n}.status`,
    value: (r, org) => fill(r, org, r.pick(org.entity.states), ''),
  },
  {
    name: 'vendor price',
    timeSensitive: true,
    key: (r, org) => `quote.${slug(r.pick(org.vendors))}.${slug(r.pick(org.cities))}.price`,
    value: (r, org) => `${org.currency}${r.int(12, 95)}.${String(r.int(0, 99)).padStart(2, '0')} per ${org.unit}`,
  },
  {
    name: 'purchase order',
    weight: 4,
    timeSensitive: false,
    key: (_r, _org, n) => `order.PO-${50000 + n}.amount`,
    value: (r, org) => `${money(r, org, 800, 250_000, 50)} with ${r.pick(org.vendors)} for ${r.pick(org.projects)}`,
  },
  {
    name: 'meeting slot',
    timeSensitive: false,
    key: (r, org) => `meeting.${slug(r.pick(org.topics))}.slot`,
    value: (r, org) => `${r.pick(WEEKDAYS)} at ${r.int(8, 17)}:${r.pick(['00', '15', '30', '45'])} in the ${r.pick(org.cities)} office`,
  },
  {
    name: 'contact',
    timeSensitive: false,
    key: (r) => `contact.${slug(r.pick(PEOPLE))}.phone`,
    value: (r) => `+${r.int(30, 49)} ${r.int(100, 999)} ${r.int(1000, 9999)} ${r.int(100, 999)}`,
  },
  {
    name: 'project milestone',
    timeSensitive: false,
    key: (r, org) => `project.${slug(r.pick(org.projects))}.milestone`,
    value: (r) =>
      `${r.pick(['Pilot', 'Go-live', 'Design sign-off', 'Vendor selection', 'First results'])} planned for ${r.int(1, 28)} ${r.pick(MONTHS)}, owned by ${r.pick(PEOPLE)}`,
  },
  {
    name: 'preference',
    timeSensitive: false,
    key: (r) => `preference.${r.pick(Object.keys(PREFERENCES))}`,
    value: (r) => r.pick(Object.values(PREFERENCES).flat()),
  },
  {
    name: 'hotel',
    timeSensitive: false,
    key: (r, org) => `travel.${slug(r.pick(org.cities))}.hotel`,
    value: (r) => `Stays at the ${r.pick(HOTELS)}, ${r.pick(['near the station', 'in the old town', 'by the harbour', 'next to the office'])}`,
  },
  {
    name: 'ticket owner',
    weight: 3,
    timeSensitive: false,
    key: (_r, _org, n) => `ticket.T-${70000 + n}.owner`,
    value: (r, org) => `${r.pick(PEOPLE)} owns this ticket about ${r.pick(org.topics)}`,
  },
  {
    name: 'stock on hand',
    timeSensitive: true,
    key: (r, org) => `site.${slug(r.pick(org.cities))}.inventory`,
    value: (r, org) => `${r.int(20, 4000)} ${org.unit}s on hand`,
  },
];

export const ORG_TEMPLATES: readonly FactTemplate[] = [
  {
    name: 'department head',
    timeSensitive: false,
    key: (r, org) => `org.department.${slug(r.pick(org.users).department)}.head`,
    value: (r) => `${r.pick(PEOPLE)} leads the department`,
  },
  {
    name: 'office address',
    timeSensitive: false,
    key: (r, org) => `org.office.${slug(r.pick(org.cities))}.address`,
    value: (r) => `${r.int(1, 220)} ${r.pick(['Harbour Road', 'Station Square', 'Market Street', 'Canal Quay', 'Park Avenue'])}`,
  },
  {
    name: 'tool owner',
    timeSensitive: false,
    key: (r, org) => `org.tool.${slug(r.pick(org.tools))}.owner`,
    value: (r) => `${r.pick(PEOPLE)} administers it`,
  },
  {
    name: 'vendor account',
    timeSensitive: false,
    key: (r, org) => `org.vendor.${slug(r.pick(org.vendors))}.account_manager`,
    value: (r) => `${r.pick(PEOPLE)} manages the account`,
  },
];

/** Correction phrasings: each carries a cue word of the explicit rule. */
export const CORRECTIONS = ['Actually, ', 'Correction: ', 'Changed: ', 'Moved: ', 'Instead, '] as const;

export interface ConstraintTemplate {
  readonly type: ConstraintType;
  readonly key: (r: Rng, org: DemoOrg) => string;
  readonly value: (r: Rng, org: DemoOrg) => string;
}

/** Policy language the engine recognises as a constraint of the named type. */
export const CONSTRAINTS: readonly ConstraintTemplate[] = [
  { type: 'budget', key: () => 'policy.travel.per_trip', value: (r, org) => `Travel spend must not exceed ${money(r, org, 1500, 5000, 250)} per trip` },
  {
    type: 'budget',
    key: (r, org) => `policy.purchasing.${slug(r.pick(org.projects))}`,
    value: (r, org) => `Purchases above ${money(r, org, 10_000, 90_000, 5000)} are not allowed without CFO sign-off`,
  },
  {
    type: 'deadline',
    key: (r, org) => `policy.reporting.${slug(r.pick(org.topics))}`,
    value: (r) => `The ${r.pick(['quarterly close', 'monthly', 'audit'])} report is due by ${r.pick(WEEKDAYS)} 17:00`,
  },
  { type: 'capacity', key: (r, org) => `policy.offsite.${slug(r.pick(org.cities))}`, value: (r) => `The offsite is limited to ${r.int(8, 40)} attendees` },
  { type: 'policy', key: () => 'policy.data.residency', value: (r) => `Customer data must not leave the ${r.pick(['EU', 'UK', 'EEA'])} region` },
  { type: 'policy', key: () => 'policy.access.production', value: () => 'Production access is not allowed from personal devices' },
];
