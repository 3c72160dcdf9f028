/**
 * A seeded generator of LongMemEval-format files (Wu et al., ICLR 2025, the `longmemeval_s` layout): any number of
 * questions, each over its own haystack of timestamped user–assistant sessions, with every quirk the real data has —
 * a haystack that repeats a session id, haystack dates out of order, evidence only in assistant turns, abstention
 * questions (`_abs`), dates like `2023/05/20 (Sat) 02:21` — plus what makes whitespace tokenisation and BM25 ties
 * matter (case, punctuation, double spaces, duplicate texts). It is the fixture of the official-protocol test and
 * the performance workload of Exp. 8; its text is nonsense made of a fixed vocabulary, never real conversations.
 */
import seedrandom from "seedrandom";

/** Size and seed of a generated file; every field has a default. */
export interface SyntheticLongMemEvalOptions {
  /** Seed of the xor4096 stream; the same options give the same bytes. Default 1. */
  seed?: number;
  /** Number of questions. Default 20. */
  questions?: number;
  /** Mean sessions per haystack (each haystack has this many ± 25 %). Default 8. */
  sessions?: number;
  /** Mean turns per session (user and assistant together). Default 6. */
  turns?: number;
  /** Mean words per turn. Default 14. */
  words?: number;
}

/** One turn as the file stores it. */
export interface SyntheticTurn {
  role: "user" | "assistant";
  content: string;
  has_answer?: boolean;
}

/** One question as the file stores it. */
export interface SyntheticQuestion {
  question_id: string;
  question_type: string;
  question: string;
  answer: string | number;
  question_date: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: SyntheticTurn[][];
  answer_session_ids: string[];
}

/** The six question types of LongMemEval (abstention is a `_abs` suffix on the id, not a type). */
export const LONGMEMEVAL_QUESTION_TYPES = [
  "single-session-user",
  "single-session-assistant",
  "single-session-preference",
  "multi-session",
  "knowledge-update",
  "temporal-reasoning",
] as const;

const FILLER = (
  "the a of to and in that it for on with as was at by this from be have or an are but not you all they we " +
  "can there so if about which when one what some more would like out up time just into how them then now " +
  "weather recipe garden movie travel weekend music book coffee office project meeting train schedule budget " +
  "laptop phone walk park city river lake beach mountain dinner lunch breakfast market friend family cousin"
).split(" ");
const SUBJECTS = (
  "violin pottery marathon aquarium telescope kayak sourdough bonsai chess origami salsa yoga tennis podcast " +
  "camera cactus parrot bicycle piano sketchbook novel ukulele lantern compass quilt vinyl terrarium"
).split(" ");
const PLACES = "Lisbon Kyoto Denver Oslo Nairobi Quito Perth Tallinn Osaka Porto Hanoi Dakar".split(" ");
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const PUNCT = ["", "", "", ".", ",", "?", "!"];

/** A LongMemEval date, e.g. `2023/05/20 (Sat) 02:21`, of UTC epoch ms. */
export function formatLongMemEvalDate(ms: number): string {
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  return `${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())} (${WEEKDAYS[d.getUTCDay()]}) ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

/** Generate a LongMemEval-format dataset (an array of questions) from `opts`; deterministic in the options. */
export function generateLongMemEval(opts: SyntheticLongMemEvalOptions = {}): SyntheticQuestion[] {
  const seed = opts.seed ?? 1;
  const nq = opts.questions ?? 20;
  const meanSessions = opts.sessions ?? 8;
  const meanTurns = opts.turns ?? 6;
  const meanWords = opts.words ?? 14;
  const rng = seedrandom.xor4096(`longmemeval-synthetic/${seed}`);
  const int = (lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const around = (m: number) => Math.max(1, int(Math.round(m * 0.75), Math.round(m * 1.25)));
  const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[int(0, 15)]).join("");
  const sentence = (n: number, extra: readonly string[] = []): string => {
    const ws = Array.from({ length: n }, () => pick(FILLER));
    for (const e of extra) ws.splice(int(0, ws.length), 0, e);
    // Case, trailing punctuation and the odd double space: whitespace tokens are case- and punctuation-sensitive.
    return ws
      .map((w, i) => (i === 0 || rng() < 0.05 ? w[0]!.toUpperCase() + w.slice(1) : w) + (rng() < 0.15 ? pick(PUNCT) : ""))
      .join(rng() < 0.1 ? "  " : " ");
  };
  // Filler turns mention a subject or a place now and then, so lexical matches are not all evidence.
  const distractor = (): string[] => (rng() < 0.35 ? [rng() < 0.5 ? pick(SUBJECTS) : pick(PLACES)] : []);
  const session = (turns: number): SyntheticTurn[] =>
    Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? "user" : "assistant",
      content: sentence(around(meanWords), distractor()),
    }));

  // A shared pool of filler sessions, as LongMemEval_S draws its haystacks from a shared pool (ShareGPT, UltraChat).
  const pool = Array.from({ length: Math.max(4, Math.round(meanSessions * 3)) }, (_, i) => ({
    id: i % 2 === 0 ? `sharegpt_${hex(7)}_${int(0, 9)}` : `ultrachat_${int(100000, 999999)}`,
    turns: session(around(meanTurns)),
  }));
  const out: SyntheticQuestion[] = [];
  const start = Date.UTC(2023, 0, 1);
  for (let q = 0; q < nq; q++) {
    const type = LONGMEMEVAL_QUESTION_TYPES[q % LONGMEMEVAL_QUESTION_TYPES.length]!;
    const abstention = q % 7 === 5;
    const subject = pick(SUBJECTS);
    const place = pick(PLACES);
    const nEvidence = type === "multi-session" || type === "knowledge-update" || type === "temporal-reasoning" ? int(2, 3) : 1;
    const nSessions = Math.max(nEvidence + 1, around(meanSessions));
    const qid = `${hex(8)}${abstention ? "_abs" : ""}`;
    const evidenceOnlyInAssistant = type === "single-session-assistant";
    const haystack: { id: string; turns: SyntheticTurn[] }[] = [];
    const answerIds: string[] = [];
    for (let e = 0; e < nEvidence; e++) {
      const id = `answer_${hex(8)}_${e + 1}`;
      const turns = session(Math.max(2, around(meanTurns)));
      // Every turn of an evidence session carries has_answer, as the official code asserts for its user turns.
      for (const t of turns) t.has_answer = false;
      const userIdx = turns.flatMap((t, i) => (t.role === "user" ? [i] : []));
      const asstIdx = turns.flatMap((t, i) => (t.role === "assistant" ? [i] : []));
      const at = evidenceOnlyInAssistant && asstIdx.length > 0 ? pick(asstIdx) : pick(userIdx);
      turns[at] = {
        role: turns[at]!.role,
        content: sentence(around(meanWords), rng() < 0.4 ? [place] : rng() < 0.5 ? [subject] : [subject, `${place}.`]),
        has_answer: true,
      };
      // Sometimes a second evidence turn in the same session (a user turn even when the first is the assistant's, once in a while).
      if (rng() < 0.3 && !evidenceOnlyInAssistant && userIdx.length > 1) {
        const j = pick(userIdx.filter((i) => i !== at));
        turns[j] = { role: "user", content: sentence(around(meanWords), [subject]), has_answer: true };
      }
      haystack.push({ id, turns });
      answerIds.push(id);
    }
    // Filler sessions drawn from the pool without replacement (a partial Fisher–Yates over the pool's indices).
    const order = pool.map((_, i) => i);
    for (let k = 0; haystack.length < nSessions && k < order.length; k++) {
      const j = int(k, order.length - 1);
      [order[k], order[j]] = [order[j]!, order[k]!];
      const s = pool[order[k]!]!;
      haystack.push({ id: s.id, turns: s.turns.map((t) => ({ ...t })) });
    }
    // Quirk: a haystack that repeats a session id (the real S file has a few), same content.
    if (q % 5 === 2) {
      const dup = haystack[haystack.length - 1]!;
      haystack.push({ id: dup.id, turns: dup.turns.map((t) => ({ ...t })) });
    }
    // Shuffle; dates ascending in haystack order except, for some questions, two swapped (dates out of order).
    for (let i = haystack.length - 1; i > 0; i--) {
      const j = int(0, i);
      [haystack[i], haystack[j]] = [haystack[j]!, haystack[i]!];
    }
    const base = start + q * 3 * 86_400_000;
    const dates = haystack.map((_, i) => base + i * 86_400_000 + int(0, 86_399) * 1000);
    if (q % 4 === 1 && dates.length >= 2) [dates[0], dates[1]] = [dates[1]!, dates[0]!];
    const questionDate = Math.max(...dates) + int(1, 30) * 86_400_000;
    out.push({
      question_id: qid,
      question_type: type,
      question: `${abstention ? "What did I say about my tuba" : `What did I say about my ${subject}`} in ${place}?`.replace(
        " in ",
        rng() < 0.2 ? "  in " : " in ",
      ),
      answer: q % 9 === 3 ? int(2, 40) : `${abstention ? "You did not mention a tuba" : `Your ${subject} in ${place}`}`,
      question_date: formatLongMemEvalDate(questionDate),
      haystack_session_ids: haystack.map((s) => s.id),
      haystack_dates: dates.map(formatLongMemEvalDate),
      haystack_sessions: haystack.map((s) => s.turns),
      answer_session_ids: answerIds,
    });
  }
  return out;
}

/** The file's bytes: the questions as a JSON array, one question per line (UTF-8, trailing newline). */
export function syntheticLongMemEvalBytes(questions: readonly SyntheticQuestion[]): Uint8Array {
  return new TextEncoder().encode(`[\n${questions.map((q) => JSON.stringify(q)).join(",\n")}\n]\n`);
}
