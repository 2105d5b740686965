// Authority of a fact's source, read from its role text word by word (never by substring): a
// table of role words and common titles ranks policy > executive > director > manager >
// employee > contractor/intern > guest. Text that names no known role ranks as a peer and says so.

export type AuthorityRole = 'policy' | 'executive' | 'director' | 'manager' | 'employee' | 'peer' | 'contractor' | 'intern' | 'guest';

export const ROLE_RANKS: Readonly<Record<AuthorityRole, number>> = {
  policy: 70,
  executive: 60,
  director: 50,
  manager: 40,
  employee: 30,
  // An unknown or unlabelled source neither overrides nor is overridden by ordinary staff.
  peer: 30,
  contractor: 20,
  intern: 20,
  guest: 10,
};

export interface RecognisedAuthority {
  readonly role: AuthorityRole;
  readonly rank: number;
  /** False when no word of the text names a role (the source then ranks as a peer). */
  readonly recognised: boolean;
  /** What decided the role: the words of the title, or "source type policy", or null. */
  readonly by: string | null;
  /** Where the authority text came from: the write's source, or the writing session's identity. */
  readonly origin: 'source' | 'identity' | 'none';
}

// Multi-word titles whose words alone would mislead ("account executive" is a sales rep).
const PHRASES: ReadonlyArray<readonly [readonly string[], AuthorityRole]> = [
  [['account', 'executive'], 'employee'],
  [['executive', 'assistant'], 'employee'],
  [['vice', 'president'], 'executive'],
  [['managing', 'director'], 'executive'],
  [['general', 'manager'], 'director'],
  [['head', 'of'], 'director'],
];

const WORDS: Readonly<Record<string, AuthorityRole>> = Object.fromEntries(
  (
    [
      ['policy', ['policy', 'policies', 'regulation', 'regulations', 'bylaw', 'bylaws']],
      [
        'executive',
        [
          'executive',
          'exec',
          'ceo',
          'cfo',
          'cto',
          'coo',
          'cio',
          'ciso',
          'cmo',
          'cpo',
          'cro',
          'chief',
          'president',
          'vp',
          'svp',
          'evp',
          'founder',
          'cofounder',
          'chairman',
          'chairwoman',
          'chairperson',
          'admin',
          'administrator',
        ],
      ],
      ['director', ['director', 'directors']],
      ['manager', ['manager', 'managers', 'mgr', 'lead', 'supervisor', 'foreman', 'system']],
      [
        'employee',
        [
          'employee',
          'staff',
          'engineer',
          'developer',
          'analyst',
          'associate',
          'specialist',
          'designer',
          'rep',
          'representative',
          'agent',
          'clerk',
          'accountant',
          'officer',
          'coordinator',
          'assistant',
          'member',
          'worker',
        ],
      ],
      ['peer', ['peer', 'user', 'colleague']],
      ['contractor', ['contractor', 'subcontractor', 'freelancer', 'consultant', 'vendor', 'temp', 'subordinate']],
      ['intern', ['intern', 'trainee', 'apprentice', 'student']],
      ['guest', ['guest', 'visitor', 'anonymous', 'customer', 'public']],
    ] as const
  ).flatMap(([role, words]) => words.map((w) => [w, role] as const)),
);

// A negation voids the role word right after it ("not-a-ceo", "ex-CFO", "anti-policy";
// "non-executive director" keeps director), and a modifier voids the role word right before it
// ("CEO impersonator", "policy-violator", "CEO-not"): neither names someone holding the role.
const NEGATIONS = new Set(['not', 'non', 'no', 'ex', 'former', 'fake', 'pseudo', 'wannabe', 'anti', 'faux', 'mock', 'would', 'self']);
const MODIFIERS = new Set([
  'not',
  'impersonator',
  'impersonators',
  'impostor',
  'imposter',
  'violator',
  'violators',
  'pretender',
  'wannabe',
  'lookalike',
  'parody',
  'breaker',
  'critic',
  'opponent',
]);
const FILLER = new Set(['a', 'an', 'the']);

/** Title words: split at separators only, never inside a word, so that a name glued to a title
 * ("ceoSmith", "JohnCEO") stays one word that names no role. */
function titleWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

// Titles repeat (every write of one source carries the same one): each is read once.
const recognised = new Map<string, { role: AuthorityRole; by: string } | null>();

/** The role a title or authority names, with the words that decided it. */
export function recogniseRole(text: string): { role: AuthorityRole; by: string } | null {
  let found = recognised.get(text);
  if (found === undefined) {
    found = readRole(text);
    if (recognised.size >= 10_000) recognised.clear();
    recognised.set(text, found);
  }
  return found;
}

function readRole(text: string): { role: AuthorityRole; by: string } | null {
  const ws = titleWords(text);
  let best: { role: AuthorityRole; by: string } | null = null;
  const consider = (role: AuthorityRole, by: string): void => {
    if (!best || ROLE_RANKS[role] > ROLE_RANKS[best.role] || (role !== 'peer' && best.role === 'peer' && ROLE_RANKS[role] === ROLE_RANKS.peer))
      best = { role, by };
  };
  let negated = false;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] as string;
    if (NEGATIONS.has(w)) {
      negated = true;
      continue;
    }
    if (FILLER.has(w)) continue;
    const phrase = PHRASES.find(([p]) => p.every((pw, j) => ws[i + j] === pw));
    const role = phrase ? phrase[1] : WORDS[w];
    const span = phrase ? phrase[0].length : 1;
    const modified = MODIFIERS.has(ws[i + span] ?? '');
    if (role && !negated && !modified) consider(role, ws.slice(i, i + span).join(' '));
    if (role || phrase) negated = false;
    i += span - 1;
  }
  return best;
}

/** Ranks a source: its stated authority text, else (for the user's own words) the partition
 * identity's authority, else a policy source type; anything unrecognised is a peer. */
export function recogniseAuthority(
  authority: string | null | undefined,
  sourceType?: string | null,
  origin: 'source' | 'identity' = 'source',
): RecognisedAuthority {
  const text = (authority ?? '').trim();
  const found = text ? recogniseRole(text) : null;
  if (found) return { role: found.role, rank: ROLE_RANKS[found.role], recognised: true, by: found.by, origin };
  if (sourceType && /^policy$/i.test(sourceType))
    return { role: 'policy', rank: ROLE_RANKS.policy, recognised: true, by: 'source type policy', origin: text ? origin : 'none' };
  return { role: 'peer', rank: ROLE_RANKS.peer, recognised: false, by: null, origin: text ? origin : 'none' };
}

export function authorityRank(authority: string | null | undefined, sourceType?: string | null): number {
  return recogniseAuthority(authority, sourceType).rank;
}

/** "VP Sales (executive)", "Head of International Sales (director: head of)", "People Ops
 * (unrecognised: ranks as peer)": how a reason names an authority. */
export function describeAuthority(text: string | null, sourceType: string, a: RecognisedAuthority): string {
  const name = text ?? sourceType;
  const from = a.origin === 'identity' ? ', from the session identity' : '';
  if (!a.recognised) return `${name} (unrecognised role: ranks as peer${from})`;
  return `${name} (${a.role}${a.by && a.by !== a.role ? `: ${a.by}` : ''}${from})`;
}
