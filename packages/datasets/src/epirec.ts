import { parseIsoDateTime } from "@persode/util";
import type { z } from "zod";
import type { EpisodicCorpus, EpisodicEpisode, EpisodicPersona } from "./corpus.js";
import { type DataIssue, DatasetFormatError } from "./errors.js";
import { checkShaped, formatJsonPath, isArrayOf, isIntIn, isOptionalText, isRecord, isText } from "./issues.js";
import { parseJsonBytes } from "./json.js";
import { EPIREC } from "./pinned.js";
import { type ResolveOptions, resolveDataset } from "./resolve.js";
import { lazily, zod } from "./zod.js";

/** The three probe types of EpiRec v1.0, one of each per episode. */
export const EPIREC_PROBE_TYPES = ["factual", "reflective_explicit", "reflective_implicit"] as const;
/** Authored intensity bands of EpiRec v1.0. */
export const EPIREC_INTENSITY_BANDS = ["high", "mild", "low"] as const;
/** Authored valences of EpiRec v1.0. */
export const EPIREC_VALENCES = ["positive", "negative", "neutral"] as const;
/** The v1.0 shape: personas × episodes per persona × probes per episode. */
export const EPIREC_SHAPE = { personas: 12, episodesPerPersona: 14, probesPerEpisode: 3 } as const;

/** The zod schema of the document: built the first time a document fails its plain check (./zod.ts). */
const epirecSchema = lazily(() => {
  const { z } = zod();
  const oneOf = (values: readonly string[], what: string) =>
    z.string().refine((v) => values.includes(v), {
      error: (iss) => `unknown ${what} ${JSON.stringify(iss.input)}; expected one of ${values.join(", ")}`,
    });
  const isoDate = (what: string) =>
    z.string().refine((v) => parseIsoDateTime(v) !== undefined, {
      error: (iss) => `${what} ${JSON.stringify(iss.input)} is not a valid ISO-8601 date-time (e.g. 2025-03-02T19:30:00+00:00)`,
    });
  const probeSchema = z.object({
    id: z.string().min(1, "probe id must be a non-empty string"),
    type: oneOf(EPIREC_PROBE_TYPES, "probe type"),
    query: z.string().min(1, "query must be a non-empty string"),
  });
  const episodeSchema = z.object({
    id: z.string().min(1, "episode id must be a non-empty string"),
    session: z.number().int().min(1),
    date_time: isoDate("date_time"),
    text: z.string().min(1, "text must be a non-empty string"),
    emotion: z.string().min(1),
    intensity_band: oneOf(EPIREC_INTENSITY_BANDS, "intensity_band"),
    valence: oneOf(EPIREC_VALENCES, "valence"),
    probes: z
      .array(probeSchema)
      .length(EPIREC_SHAPE.probesPerEpisode, `EpiRec v1.0 has exactly ${EPIREC_SHAPE.probesPerEpisode} probes per episode`),
  });
  const personaSchema = z.object({
    persona_id: z.string().min(1, "persona_id must be a non-empty string"),
    name: z.string().optional(),
    age: z.number().optional(),
    context: z.string().optional(),
    episodes: z
      .array(episodeSchema)
      .length(EPIREC_SHAPE.episodesPerPersona, `EpiRec v1.0 has exactly ${EPIREC_SHAPE.episodesPerPersona} episodes per persona`),
  });
  return z.object({
    version: z.literal("1.0", { error: (iss) => `expected version "1.0", got ${JSON.stringify(iss.input)}` }),
    reference_now: isoDate("reference_now"),
    personas: z.array(personaSchema).length(EPIREC_SHAPE.personas, `EpiRec v1.0 has exactly ${EPIREC_SHAPE.personas} personas`),
  });
});
type RawEpiRec = z.output<ReturnType<typeof epirecSchema>>;

const PROBE_TYPES: ReadonlySet<unknown> = new Set(EPIREC_PROBE_TYPES);
const INTENSITY_BANDS: ReadonlySet<unknown> = new Set(EPIREC_INTENSITY_BANDS);
const VALENCES: ReadonlySet<unknown> = new Set(EPIREC_VALENCES);

const isIsoDate = (v: unknown): v is string => typeof v === "string" && parseIsoDateTime(v) !== undefined;
const isProbe = (v: unknown) => isRecord(v) && isText(v.id, 1) && PROBE_TYPES.has(v.type) && isText(v.query, 1);
const isEpisode = (v: unknown) =>
  isRecord(v) &&
  isText(v.id, 1) &&
  isIntIn(v.session, 1, Number.MAX_SAFE_INTEGER) &&
  isIsoDate(v.date_time) &&
  isText(v.text, 1) &&
  isText(v.emotion, 1) &&
  INTENSITY_BANDS.has(v.intensity_band) &&
  VALENCES.has(v.valence) &&
  isArrayOf(v.probes, isProbe, EPIREC_SHAPE.probesPerEpisode);
const isPersona = (v: unknown) =>
  isRecord(v) &&
  isText(v.persona_id, 1) &&
  isOptionalText(v.name) &&
  (v.age === undefined || (typeof v.age === "number" && Number.isFinite(v.age))) &&
  isOptionalText(v.context) &&
  isArrayOf(v.episodes, isEpisode, EPIREC_SHAPE.episodesPerPersona);
/** What epirecSchema accepts, as plain predicates (checkShaped): the pinned file passes them without loading zod. */
const isEpiRec = (v: unknown): v is RawEpiRec =>
  isRecord(v) && v.version === "1.0" && isIsoDate(v.reference_now) && isArrayOf(v.personas, isPersona, EPIREC_SHAPE.personas);

/**
 * Validate the EpiRec v1.0 JSON (12 × 14 × 3, unique ids, known probe types, one probe of each type per episode)
 * and convert it to an EpisodicCorpus. Throws DatasetFormatError naming exact paths like `personas[3].episodes[7].probes[1].type`.
 */
export function parseEpiRec(json: unknown, sha256 = "", path = "<in-memory>"): EpisodicCorpus {
  const subject = `EpiRec v1.0 (${path})`;
  const issues: DataIssue[] = [];
  const doc = checkShaped(isEpiRec, epirecSchema, json, [], issues);
  if (!doc) throw new DatasetFormatError(subject, issues);

  const personaIds = new Map<string, string>();
  const episodeIds = new Map<string, string>();
  const probeIds = new Map<string, string>();
  const claim = (seen: Map<string, string>, id: string, where: string, what: string) => {
    const prev = seen.get(id);
    if (prev !== undefined) issues.push({ where, message: `duplicate ${what} "${id}" (also at ${prev})` });
    else seen.set(id, where);
  };

  const personas: EpisodicPersona[] = doc.personas.map((p, pi) => {
    claim(personaIds, p.persona_id, formatJsonPath(["personas", pi, "persona_id"]), "persona_id");
    const episodes: EpisodicEpisode[] = p.episodes.map((e, ei) => {
      claim(episodeIds, e.id, formatJsonPath(["personas", pi, "episodes", ei, "id"]), "episode id");
      const typesSeen = new Set<string>();
      e.probes.forEach((q, qi) => {
        claim(probeIds, q.id, formatJsonPath(["personas", pi, "episodes", ei, "probes", qi, "id"]), "probe id");
        if (typesSeen.has(q.type)) {
          issues.push({
            where: formatJsonPath(["personas", pi, "episodes", ei, "probes", qi, "type"]),
            message: `second "${q.type}" probe in this episode; each episode has one probe of each type (${EPIREC_PROBE_TYPES.join(", ")})`,
          });
        }
        typesSeen.add(q.type);
      });
      return {
        id: e.id,
        session: e.session,
        dateTime: e.date_time,
        timestampMs: parseIsoDateTime(e.date_time)!,
        text: e.text,
        emotion: e.emotion,
        intensityBand: e.intensity_band,
        valence: e.valence,
        probes: e.probes.map((q) => ({ id: q.id, type: q.type, query: q.query })),
      };
    });
    const persona: EpisodicPersona = { id: p.persona_id, episodes };
    if (p.name !== undefined) persona.name = p.name;
    if (p.age !== undefined) persona.age = p.age;
    if (p.context !== undefined) persona.context = p.context;
    return persona;
  });
  if (issues.length > 0) throw new DatasetFormatError(subject, issues);

  return {
    name: "EpiRec v1.0",
    referenceNow: doc.reference_now,
    referenceNowMs: parseIsoDateTime(doc.reference_now)!,
    personas,
    sha256,
    source: path,
    warnings: [],
  };
}

/** Resolve the pinned `epirec_v1.json` (path → cache → mirror → download, sha256-verified) and parse it. */
export async function loadEpiRec(opts?: ResolveOptions): Promise<EpisodicCorpus> {
  const file = await resolveDataset(EPIREC, opts);
  return parseEpiRec(parseJsonBytes(file.bytes, `EpiRec v1.0 (${file.path})`), file.sha256, file.path);
}
