/**
 * Reading and validating an EpiRec rankings file (docs/spec.md §7): JSON Lines, one object
 * `{"persona_id", "probe_id", "ranked_episode_ids"}` per probe; every probe of the
 * corpus exactly once, each ranking a permutation of its persona's episode ids.
 */
import { indexCorpus, type CorpusIndex, type EvaluatedCorpus, type IndexedPersona } from "./corpus-index.js";

/** A rankings file or map that breaks the rules; `line` (1-based) is set when one line is at fault. */
export class RankingsError extends Error {
  override readonly name = "RankingsError";
  /** The file (or source) label used in the message. */
  readonly file: string;
  /** 1-based line number of the offending line, or undefined for whole-file problems. */
  readonly line: number | undefined;

  constructor(file: string, line: number | undefined, problem: string) {
    super(line === undefined ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
    this.file = file;
    this.line = line;
  }
}

const FIELDS = ["persona_id", "probe_id", "ranked_episode_ids"] as const;
const LINE_SHAPE = '{"persona_id": "...", "probe_id": "...", "ranked_episode_ids": ["...", ...]}';
const MAX_NAMED = 5;

function kindOf(x: unknown): string {
  if (x === null) return "null";
  if (Array.isArray(x)) return "an array";
  if (typeof x === "string") return `the string ${JSON.stringify(x.length > 40 ? x.slice(0, 40) + "…" : x)}`;
  if (typeof x === "number" || typeof x === "boolean") return `${typeof x} ${String(x)}`;
  return typeof x === "object" ? "an object" : typeof x;
}

function quoteList(ids: readonly string[], total = ids.length): string {
  const shown = ids
    .slice(0, MAX_NAMED)
    .map((id) => JSON.stringify(id))
    .join(", ");
  return total > MAX_NAMED ? `${shown} and ${total - MAX_NAMED} more` : shown;
}

/**
 * Why `ranking` is not a permutation of the persona's episode ids, or null when it is.
 * Checks, in order: element types, foreign ids, repeated ids, missing ids.
 */
function rankingProblem(ranking: readonly unknown[], persona: IndexedPersona, index: CorpusIndex): string | null {
  const seen = new Map<string, number>();
  const total = persona.episodeIds.length;
  const fix = `the ranking must list each of persona "${persona.id}"'s ${total} episode ids exactly once`;
  for (let i = 0; i < ranking.length; i++) {
    const id = ranking[i];
    if (typeof id !== "string") return `ranked_episode_ids[${i}] must be an episode id string, got ${kindOf(id)}`;
    if (!persona.episodeSet.has(id)) {
      const owner = index.episodeOwner.get(id);
      const where = owner === undefined ? "no persona has an episode with this id" : `it is an episode of persona "${owner}"`;
      return `ranked_episode_ids[${i}] = ${JSON.stringify(id)} is not an episode of persona "${persona.id}" (${where}); ${fix}`;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      return `ranked_episode_ids[${i}] = ${JSON.stringify(id)} repeats ranked_episode_ids[${first}]; ${fix}`;
    }
    seen.set(id, i);
  }
  if (ranking.length !== total) {
    const missing = persona.episodeIds.filter((id) => !seen.has(id));
    return `ranked_episode_ids has ${ranking.length} ids but persona "${persona.id}" has ${total} episodes (missing ${quoteList(missing)}); ${fix}`;
  }
  return null;
}

function missingProbesProblem(index: CorpusIndex, has: (probeId: string) => boolean): string | null {
  const missing = index.probes.filter((p) => !has(p.probeId)).map((p) => p.probeId);
  if (missing.length === 0) return null;
  return (
    `${missing.length} of ${index.probes.length} probes have no ranking: ${quoteList(missing)}; ` +
    `every probe of the corpus must be ranked exactly once`
  );
}

/**
 * Parse and validate a rankings JSONL text against the corpus. Returns probe id → ranking in
 * file order (the order the official evaluator resamples in). Blank lines and fields other than
 * the three are ignored. Throws RankingsError naming the 1-based line.
 */
export function parseRankingsJsonl(text: string, corpus: EvaluatedCorpus, fileLabel = "rankings"): Map<string, string[]> {
  const index = indexCorpus(corpus);
  const rankings = new Map<string, string[]>();
  const lineOf = new Map<string, number>();
  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i]!.endsWith("\r") ? lines[i]!.slice(0, -1) : lines[i]!;
    if (raw.trim() === "") continue;
    const fail: (problem: string) => never = (problem) => {
      throw new RankingsError(fileLabel, lineNo, problem);
    };
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (e) {
      fail(`malformed JSON (${(e as Error).message}); each line must be one JSON object ${LINE_SHAPE}`);
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      fail(`expected a JSON object ${LINE_SHAPE}, got ${kindOf(record)}`);
    }
    const obj = record as Record<string, unknown>;
    const missing = FIELDS.filter((f) => !Object.prototype.hasOwnProperty.call(obj, f));
    if (missing.length > 0) fail(`missing field${missing.length > 1 ? "s" : ""} ${quoteList(missing)}; each line must be ${LINE_SHAPE}`);
    // Other fields (a score, a system name, …) are ignored, as the official evaluator ignores them.
    const personaId = obj.persona_id;
    const probeId = obj.probe_id;
    const ranking = obj.ranked_episode_ids;
    if (typeof personaId !== "string") fail(`"persona_id" must be a string, got ${kindOf(personaId)}`);
    if (typeof probeId !== "string") fail(`"probe_id" must be a string, got ${kindOf(probeId)}`);
    if (!Array.isArray(ranking)) fail(`"ranked_episode_ids" must be an array of episode ids, got ${kindOf(ranking)}`);
    const persona = index.personaById.get(personaId as string);
    if (!persona) {
      const known = [...index.personaById.keys()];
      fail(`unknown persona ${JSON.stringify(personaId)}; the corpus has ${known.length} personas: ${quoteList(known)}`);
    }
    const probe = index.probeById.get(probeId as string);
    if (!probe) fail(`unknown probe ${JSON.stringify(probeId)}; it is not a probe of this corpus`);
    if (probe!.personaId !== personaId) {
      fail(
        `probe ${JSON.stringify(probeId)} belongs to persona "${probe!.personaId}", but this line lists it under persona ${JSON.stringify(personaId)}`,
      );
    }
    const earlier = lineOf.get(probeId as string);
    if (earlier !== undefined)
      fail(`duplicate probe ${JSON.stringify(probeId)} (already ranked on line ${earlier}); list each probe exactly once`);
    const problem = rankingProblem(ranking as unknown[], persona!, index);
    if (problem !== null) fail(`probe ${JSON.stringify(probeId)}: ${problem}`);
    rankings.set(probeId as string, ranking as string[]);
    lineOf.set(probeId as string, lineNo);
  }
  const absent = missingProbesProblem(index, (id) => rankings.has(id));
  if (absent !== null) throw new RankingsError(fileLabel, undefined, absent);
  return rankings;
}

/**
 * Validate an in-memory probe id → ranking map against an indexed corpus with the same
 * rules as the file reader (no line numbers); throws RankingsError labelled `source`.
 */
export function validateRankings(index: CorpusIndex, rankings: ReadonlyMap<string, readonly string[]>, source = "rankings"): void {
  for (const [probeId, ranking] of rankings) {
    const probe = index.probeById.get(probeId);
    if (!probe) throw new RankingsError(source, undefined, `unknown probe ${JSON.stringify(probeId)}; it is not a probe of this corpus`);
    if (!Array.isArray(ranking))
      throw new RankingsError(source, undefined, `probe ${JSON.stringify(probeId)}: the ranking must be an array of episode ids`);
    const problem = rankingProblem(ranking, index.personaById.get(probe.personaId)!, index);
    if (problem !== null) throw new RankingsError(source, undefined, `probe ${JSON.stringify(probeId)}: ${problem}`);
  }
  const absent = missingProbesProblem(index, (id) => rankings.has(id));
  if (absent !== null) throw new RankingsError(source, undefined, absent);
}
