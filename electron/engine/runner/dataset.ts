// A small deterministic conversation dataset for the runners (50 sessions by default):
// sessions of alternating user/assistant messages, dated a few days apart, whose user messages
// carry the structured state an agent would extract — facts that get updated (5K time, degree,
// job, city), people and places, evolving preferences and dated notes (museum visits, purchases).
import { mulberry32 } from '../demo/prng';
import type { Extracted, Session, SessionMessage } from './types';

export interface DatasetOptions {
  readonly sessions: number;
  readonly messagesPerSession?: number;
  readonly seed?: number;
  /** First session date (YYYY-MM-DD). */
  readonly start?: string;
}

const MUSEUMS = ['Louvre', 'Prado', 'Rijksmuseum', 'Uffizi', 'Tate Modern', 'MoMA', 'Pergamon Museum', 'Belvedere'];
const PLANTS = ['monstera', 'fern', 'cactus', 'snake plant', 'orchid', 'pothos', 'fiddle leaf fig'];
const PEOPLE: ReadonlyArray<readonly [string, string]> = [
  ['Alice', 'manager at work'],
  ['Bob', 'running partner'],
  ['Chen', 'sister'],
  ['Dana', 'landlord'],
  ['Emil', 'colleague on the data team'],
  ['Farah', 'old university friend'],
];
const DRINKS = ['black coffee', 'oat flat white', 'green tea', 'espresso', 'chai latte'];
const JOBS = ['junior data analyst', 'data analyst', 'senior data analyst', 'analytics team lead'];
const CITIES = ['Leeds', 'Manchester', 'Bristol'];
const FILLER = ['Can you help me plan my week?', 'What should I cook tonight?', 'Remind me what we talked about last time.', 'Any tips for sleeping better?'];
const REPLIES = ['Noted, thanks for telling me.', 'Got it — I will keep that in mind.', 'Sounds good.', 'Thanks, that helps.'];

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)] as T;
}

export function generateDataset(options: DatasetOptions): Session[] {
  const rand = mulberry32(options.seed ?? 42);
  const perSession = Math.max(2, options.messagesPerSession ?? 10);
  const start = options.start ?? '2025-01-06';
  let runSeconds = 29 * 60 + 40;
  let job = 0;
  let city = 0;
  let plants = 0;
  const sessions: Session[] = [];
  for (let s = 0; s < options.sessions; s++) {
    const date = addDays(start, s * 3);
    const id = `s-${String(s + 1).padStart(3, '0')}`;
    const messages: SessionMessage[] = [];
    const userTurns = Math.ceil(perSession / 2);
    for (let u = 0; u < userTurns; u++) {
      const ts = `${date}T${String(9 + Math.floor((u * 2) / 6)).padStart(2, '0')}:${String(((u * 2) % 6) * 10).padStart(2, '0')}:00Z`;
      let text: string;
      let extracted: Extracted | undefined;
      // Scripted milestones first, so every dataset has updates to supersede.
      if (s === 0 && u === 0) {
        text = `Hi! I work as a ${JOBS[0]} and I have a bachelor's degree in economics. I live in ${CITIES[0]}.`;
        extracted = {
          facts: [
            { key: 'job_title', value: JOBS[0] as string },
            { key: 'degree', value: "bachelor's degree in economics" },
            { key: 'home_city', value: CITIES[0] as string },
          ],
        };
      } else if (s === Math.floor(options.sessions / 2) && u === 0) {
        text = 'Big news: I finished my MBA last week!';
        extracted = { facts: [{ key: 'degree_update', value: 'MBA (completed)', supersedes: 'degree' }], notes: [`Completed an MBA (mentioned ${date})`] };
      } else if (u === 1 && s > 0 && s % 12 === 0 && job < JOBS.length - 1) {
        job++;
        text = `I was promoted — I'm now a ${JOBS[job]}.`;
        extracted = { facts: [{ key: 'job_title', value: JOBS[job] as string }] };
      } else if (u === 1 && s > 0 && s % 20 === 0 && city < CITIES.length - 1) {
        city++;
        text = `We moved! I live in ${CITIES[city]} now.`;
        extracted = { facts: [{ key: 'home_city', value: CITIES[city] as string }], entities: [{ name: 'Dana', removed: true }] };
      } else {
        const r = rand();
        if (r < 0.18) {
          runSeconds -= Math.floor(rand() * 20);
          const t = `${Math.floor(runSeconds / 60)}:${String(runSeconds % 60).padStart(2, '0')}`;
          text = `I ran a 5K this morning in ${t}.`;
          extracted = { facts: [{ key: '5k_time', value: t }] };
        } else if (r < 0.32) {
          const museum = pick(rand, MUSEUMS);
          text = `I visited the ${museum} today.`;
          extracted = { notes: [`Visited the ${museum} on ${date}`], entities: [{ name: museum, kind: 'place', relation: `museum visited on ${date}` }] };
        } else if (r < 0.44) {
          plants++;
          const plant = pick(rand, PLANTS);
          text = `I bought another plant today, a ${plant}.`;
          extracted = { facts: [{ key: 'plants_bought', value: String(plants) }], notes: [`Bought a ${plant} on ${date}`] };
        } else if (r < 0.6) {
          const [name, relation] = pick(rand, PEOPLE);
          text = `Had lunch with ${name} — my ${relation}.`;
          extracted = { entities: [{ name, kind: 'person', relation }] };
        } else if (r < 0.72) {
          const drink = pick(rand, DRINKS);
          text = `These days I prefer ${drink} in the morning.`;
          extracted = { preferences: [{ topic: 'morning drink', value: drink }] };
        } else {
          text = pick(rand, FILLER);
        }
      }
      messages.push(extracted ? { role: 'user', text, ts, extracted } : { role: 'user', text, ts });
      if (messages.length < perSession) {
        const replyTs = ts.replace(/:00Z$/, ':30Z');
        messages.push({ role: 'assistant', text: pick(rand, REPLIES), ts: replyTs });
      }
    }
    sessions.push({ id, date, messages: messages.slice(0, perSession) });
  }
  return sessions;
}
