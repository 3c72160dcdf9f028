import { DAY_MS } from "@persode/util";

/**
 * The slice of an episodic corpus the EpiRec official evaluator reads, indexed for
 * lookup: who owns each probe and episode, each probe's target episode, probe type,
 * intensity band and age bucket (docs/spec.md §7, "EpiRec official evaluation").
 */

/** The corpus fields the evaluator needs; @persode/datasets' `EpisodicCorpus` satisfies it. */
export interface EvaluatedCorpus {
  referenceNowMs: number;
  personas: ReadonlyArray<{
    id: string;
    episodes: ReadonlyArray<{
      id: string;
      timestampMs: number;
      intensityBand?: string | undefined;
      probes: ReadonlyArray<{ id: string; type: string }>;
    }>;
  }>;
}

/** Age bucket of a probe's target episode, measured back from the corpus reference_now. */
export type AgeBucket = "short" | "medium" | "long";

/** One probe with everything the report groups by; `target` is the probe's own episode. */
export interface IndexedProbe {
  probeId: string;
  personaId: string;
  target: string;
  type: string;
  intensityBand: string | undefined;
  ageBucket: AgeBucket;
}

/** A persona's episode ids in corpus order, for permutation checks. */
export interface IndexedPersona {
  id: string;
  episodeIds: readonly string[];
  episodeSet: ReadonlySet<string>;
}

/** Lookup tables over a validated corpus; `probes` is in corpus order (persona, episode, probe). */
export interface CorpusIndex {
  probes: readonly IndexedProbe[];
  probeById: ReadonlyMap<string, IndexedProbe>;
  personaById: ReadonlyMap<string, IndexedPersona>;
  /** First persona (corpus order) holding each episode id, for naming foreign ids in errors. */
  episodeOwner: ReadonlyMap<string, string>;
}

/** Age bucket from ages in milliseconds: ≤ 6 days "short", > 30 days "long", else "medium". */
export function ageBucket(ageMs: number): AgeBucket {
  if (ageMs <= 6 * DAY_MS) return "short";
  if (ageMs > 30 * DAY_MS) return "long";
  return "medium";
}

/** Index a corpus, rejecting ids that would make rankings ambiguous (duplicate personas, episodes within a persona, or probes). */
export function indexCorpus(corpus: EvaluatedCorpus): CorpusIndex {
  if (!Number.isFinite(corpus.referenceNowMs)) {
    throw new RangeError(`EpiRec corpus: referenceNowMs must be a finite timestamp, got ${corpus.referenceNowMs}`);
  }
  const probes: IndexedProbe[] = [];
  const probeById = new Map<string, IndexedProbe>();
  const personaById = new Map<string, IndexedPersona>();
  const episodeOwner = new Map<string, string>();
  for (const persona of corpus.personas) {
    if (personaById.has(persona.id))
      throw new RangeError(`EpiRec corpus: persona id "${persona.id}" occurs twice; persona ids must be unique`);
    const episodeIds: string[] = [];
    const episodeSet = new Set<string>();
    for (const episode of persona.episodes) {
      if (episodeSet.has(episode.id)) {
        throw new RangeError(
          `EpiRec corpus: persona "${persona.id}" has episode id "${episode.id}" twice; episode ids must be unique within a persona`,
        );
      }
      if (!Number.isFinite(episode.timestampMs)) {
        throw new RangeError(
          `EpiRec corpus: episode "${episode.id}" of persona "${persona.id}" has no valid timestamp (${episode.timestampMs})`,
        );
      }
      episodeIds.push(episode.id);
      episodeSet.add(episode.id);
      if (!episodeOwner.has(episode.id)) episodeOwner.set(episode.id, persona.id);
      const band = typeof episode.intensityBand === "string" && episode.intensityBand !== "" ? episode.intensityBand : undefined;
      const bucket = ageBucket(corpus.referenceNowMs - episode.timestampMs);
      for (const probe of episode.probes) {
        const previous = probeById.get(probe.id);
        if (previous) {
          throw new RangeError(
            `EpiRec corpus: probe id "${probe.id}" occurs twice (episodes "${previous.target}" and "${episode.id}"); probe ids must be unique`,
          );
        }
        const entry: IndexedProbe = {
          probeId: probe.id,
          personaId: persona.id,
          target: episode.id,
          type: probe.type,
          intensityBand: band,
          ageBucket: bucket,
        };
        probes.push(entry);
        probeById.set(probe.id, entry);
      }
    }
    personaById.set(persona.id, { id: persona.id, episodeIds, episodeSet });
  }
  return { probes, probeById, personaById, episodeOwner };
}
