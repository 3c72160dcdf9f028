import { describe, expect, it } from "vitest";
import { DatasetFormatError, EPIREC, EPIREC_PROBE_TYPES, corpusCounts, loadEpiRec, parseEpiRec, resolveDataset } from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

/** A fresh deep copy of the pinned EpiRec JSON, for mutation tests. */
async function pinnedJson(): Promise<any> {
  const f = await resolveDataset(EPIREC, pinnedDataOptions());
  return JSON.parse(f.bytes.toString("utf8"));
}

function formatError(json: unknown): DatasetFormatError {
  try {
    parseEpiRec(json);
  } catch (e) {
    if (e instanceof DatasetFormatError) return e;
    throw e;
  }
  throw new Error("expected a DatasetFormatError");
}

describe("loadEpiRec (pinned file)", () => {
  it("loads 12 × 14 × 3 with reference_now, labels and the verified sha256", async () => {
    const c = await loadEpiRec(pinnedDataOptions());
    expect(c.name).toBe("EpiRec v1.0");
    expect(c.sha256).toBe(EPIREC.sha256);
    expect(corpusCounts(c)).toEqual({ personas: 12, episodes: 168, probes: 504 });
    expect(c.referenceNow).toBe("2025-06-30T12:00:00+00:00");
    expect(c.referenceNowMs).toBe(Date.UTC(2025, 5, 30, 12));
    expect(c.warnings).toEqual([]);
    const p = c.personas[0]!;
    expect(p.id).toBe("p01");
    expect(p.name).toBe("Mina");
    const e = p.episodes[0]!;
    expect(e).toMatchObject({
      id: "p01e01",
      session: 1,
      dateTime: "2025-03-02T19:30:00+00:00",
      intensityBand: "low",
      valence: "neutral",
      emotion: "calm",
    });
    expect(e.timestampMs).toBe(Date.UTC(2025, 2, 2, 19, 30));
    expect(e.probes.map((q) => q.type)).toEqual([...EPIREC_PROBE_TYPES]);
    expect(e.probes[0]!.id).toBe("p01e01-f");
    const bands = new Map<string, number>();
    for (const ep of c.personas.flatMap((x) => x.episodes)) bands.set(ep.intensityBand!, (bands.get(ep.intensityBand!) ?? 0) + 1);
    expect(Object.fromEntries(bands)).toEqual({ high: 72, mild: 37, low: 59 });
  });
});

describe("parseEpiRec validation", () => {
  it("names the exact path of an unknown probe type", async () => {
    const j = await pinnedJson();
    j.personas[3].episodes[7].probes[1].type = "reflective";
    const err = formatError(j);
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]!.where).toBe("personas[3].episodes[7].probes[1].type");
    expect(err.issues[0]!.message).toContain('"reflective"');
    expect(err.message).toContain("personas[3].episodes[7].probes[1].type");
  });

  it("checks the 12 × 14 × 3 shape", async () => {
    const j = await pinnedJson();
    j.personas[5].episodes.pop();
    j.personas[2].episodes[4].probes.push({ id: "extra", type: "factual", query: "q" });
    const where = formatError(j).issues.map((i) => i.where);
    expect(where).toContain("personas[5].episodes");
    expect(where).toContain("personas[2].episodes[4].probes");
    const k = await pinnedJson();
    k.personas.pop();
    expect(formatError(k).issues.map((i) => i.where)).toEqual(["personas"]);
  });

  it("rejects duplicate episode and probe ids, and two probes of one type", async () => {
    const j = await pinnedJson();
    j.personas[2].episodes[1].id = j.personas[2].episodes[0].id;
    j.personas[7].episodes[3].probes[2].id = j.personas[0].episodes[0].probes[0].id;
    j.personas[1].episodes[1].probes[2].type = "factual";
    const issues = formatError(j).issues;
    expect(issues).toContainEqual({
      where: "personas[2].episodes[1].id",
      message: 'duplicate episode id "p03e01" (also at personas[2].episodes[0].id)',
    });
    expect(issues.map((i) => i.where)).toContain("personas[7].episodes[3].probes[2].id");
    expect(issues.map((i) => i.where)).toContain("personas[1].episodes[1].probes[2].type");
  });

  it("rejects invalid dates, bands and versions with their paths", async () => {
    const j = await pinnedJson();
    j.personas[0].episodes[2].date_time = "2025-02-30T10:00:00";
    j.personas[4].episodes[9].intensity_band = "extreme";
    j.personas[6].episodes[0].text = "";
    j.reference_now = "soon";
    j.version = "1.1";
    const where = formatError(j)
      .issues.map((i) => i.where)
      .sort();
    expect(where).toEqual(
      [
        "personas[0].episodes[2].date_time",
        "personas[4].episodes[9].intensity_band",
        "personas[6].episodes[0].text",
        "reference_now",
        "version",
      ].sort(),
    );
  });
});
