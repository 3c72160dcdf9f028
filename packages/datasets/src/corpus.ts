/** A query whose single target is the episode it belongs to (docs/spec.md §7 Exp. 6). */
export interface EpisodicProbe {
  id: string;
  /** Probe type, e.g. factual / reflective_explicit / reflective_implicit (any label in a CSV corpus). */
  type: string;
  query: string;
}

/** One dated journal episode; the authored labels are reported in strata, never inputs to retrieval. */
export interface EpisodicEpisode {
  id: string;
  session?: number;
  /** Raw ISO-8601 date-time as written in the source. */
  dateTime: string;
  /** `dateTime` as UTC epoch ms (a value without a zone is UTC). */
  timestampMs: number;
  text: string;
  emotion?: string;
  intensityBand?: string;
  valence?: string;
  /** Probes targeting this episode, in source order. */
  probes: EpisodicProbe[];
}

/** One persona's journal: its episodes in source order. */
export interface EpisodicPersona {
  id: string;
  name?: string;
  age?: number;
  /** Free-text description of the persona's situation (EpiRec `context`). */
  context?: string;
  episodes: EpisodicEpisode[];
}

/** An episodic recall corpus (EpiRec v1.0 or a bring-your-own CSV corpus); every EpiRec-style benchmark runs on it. */
export interface EpisodicCorpus {
  /** "EpiRec v1.0" or the CSV corpus name. */
  name: string;
  /** The evaluation clock as written (EpiRec `reference_now`, the `now` option, or latest episode + 1 day). */
  referenceNow: string;
  referenceNowMs: number;
  personas: EpisodicPersona[];
  /** sha256 of the source bytes (a CSV corpus: episodes bytes then probes bytes as one stream). */
  sha256: string;
  /** Where the corpus came from (file path, or both CSV paths joined by " + "). */
  source: string;
  /** Non-fatal observations (e.g. a persona with 3 or fewer episodes); the library never prints them. */
  warnings: string[];
}

/** Number of episodes and probes in a corpus (for summaries and sanity checks). */
export function corpusCounts(c: EpisodicCorpus): { personas: number; episodes: number; probes: number } {
  let episodes = 0;
  let probes = 0;
  for (const p of c.personas) {
    episodes += p.episodes.length;
    for (const e of p.episodes) probes += e.probes.length;
  }
  return { personas: c.personas.length, episodes, probes };
}
