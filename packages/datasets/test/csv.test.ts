import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DatasetError, DatasetFormatError, corpusCounts, loadCsvCorpus, loadEpiRec, type EpisodicCorpus } from "../src/index.js";
import { cleanup, pinnedDataOptions, tempDir } from "./helpers.js";

const EXAMPLE = fileURLToPath(new URL("../examples/journal/", import.meta.url));
afterEach(cleanup);

const EP_HEADER = "persona_id,episode_id,date_time,text,intensity_band,valence,emotion";
const PR_HEADER = "persona_id,probe_id,episode_id,type,query";

/** Write the two CSV files into a temp dir and return their paths. */
async function files(episodes: string, probes: string): Promise<[string, string]> {
  const dir = await tempDir();
  const e = join(dir, "episodes.csv");
  const p = join(dir, "probes.csv");
  await writeFile(e, episodes);
  await writeFile(p, probes);
  return [e, p];
}

async function csvIssues(episodes: string, probes: string): Promise<{ where: string; message: string }[]> {
  const [e, p] = await files(episodes, probes);
  const err = await loadCsvCorpus(e, p).catch((x: unknown) => x);
  if (!(err instanceof DatasetFormatError)) throw new Error(`expected a DatasetFormatError, got ${String(err)}`);
  // Locations are reported as "<path as given>:<line>"; keep the base name for readable assertions.
  return err.issues.map((i) => ({ where: i.where.replace(/^.*[\\/]/, ""), message: i.message }));
}

const FOUR = [
  EP_HEADER,
  "a,a1,2025-01-01T10:00:00,one,,,",
  "a,a2,2025-01-02T10:00:00,two,,,",
  "a,a3,2025-01-03T10:00:00,three,,,",
  "a,a4,2025-01-04T10:00:00,four,,,",
].join("\n");

describe("the example journal corpus", () => {
  it("loads as an EpisodicCorpus with sha256 over episodes then probes bytes", async () => {
    const ep = join(EXAMPLE, "episodes.csv");
    const pr = join(EXAMPLE, "probes.csv");
    const c = await loadCsvCorpus(ep, pr);
    expect(c.name).toBe("episodes");
    expect(c.warnings).toEqual([]);
    const counts = corpusCounts(c);
    expect(counts.personas).toBe(3);
    for (const p of c.personas) {
      expect(p.episodes.length).toBeGreaterThanOrEqual(5);
      expect(p.episodes.length).toBeLessThanOrEqual(6);
      for (const e of p.episodes) {
        expect(e.probes.length).toBeGreaterThanOrEqual(2);
        expect(e.probes.length).toBeLessThanOrEqual(3);
        expect(["high", "mild", "low"]).toContain(e.intensityBand);
        for (const q of e.probes) expect(["factual", "reflective_explicit", "reflective_implicit"]).toContain(q.type);
      }
    }
    const expected = createHash("sha256")
      .update(await readFile(ep))
      .update(await readFile(pr))
      .digest("hex");
    expect(c.sha256).toBe(expected);
    const all = c.personas.flatMap((p) => p.episodes);
    const latest = Math.max(...all.map((e) => e.timestampMs));
    const earliest = Math.min(...all.map((e) => e.timestampMs));
    expect(c.referenceNowMs).toBe(latest + 86_400_000);
    expect(c.referenceNow).toBe(new Date(latest + 86_400_000).toISOString());
    expect((latest - earliest) / 86_400_000).toBeGreaterThan(50);
    const quoted = all.find((e) => e.id === "j01e04")!;
    expect(quoted.text).toContain('"you kept me going"');
    const zoned = all.find((e) => e.id === "j02e01")!;
    expect(zoned.timestampMs).toBe(Date.UTC(2025, 3, 5, 5, 0));
    expect(all.find((e) => e.id === "j01e01")!.timestampMs).toBe(Date.UTC(2025, 3, 2, 21, 10));
  });

  it("uses the `now` and `name` options", async () => {
    const c = await loadCsvCorpus(join(EXAMPLE, "episodes.csv"), join(EXAMPLE, "probes.csv"), {
      name: "my journal",
      now: "2025-07-01T00:00:00+02:00",
    });
    expect(c.name).toBe("my journal");
    expect(c.referenceNow).toBe("2025-07-01T00:00:00+02:00");
    expect(c.referenceNowMs).toBe(Date.UTC(2025, 5, 30, 22));
    await expect(loadCsvCorpus(join(EXAMPLE, "episodes.csv"), join(EXAMPLE, "probes.csv"), { now: "next week" })).rejects.toThrow(
      /option now="next week" is not an ISO-8601/,
    );
  });
});

describe("CSV corpus rules", () => {
  it("keeps episode-file order, groups probes under their episodes in probe-file order, and treats no zone as UTC", async () => {
    const [e, p] = await files(
      [EP_HEADER, "b,b1,2025-01-05T08:00:00,b one,high,positive,joy", FOUR.split("\n").slice(1).join("\n")].join("\n"),
      [PR_HEADER, "a,q3,a2,factual,x?", "b,q1,b1,reflective_implicit,y", "a,q2,a1,custom label,z", "a,q4,a2,factual,w?"].join("\n"),
    );
    const c = await loadCsvCorpus(e, p);
    expect(c.personas.map((x) => x.id)).toEqual(["b", "a"]);
    expect(c.personas[1]!.episodes.map((x) => x.id)).toEqual(["a1", "a2", "a3", "a4"]);
    expect(c.personas[1]!.episodes[1]!.probes.map((q) => q.id)).toEqual(["q3", "q4"]);
    expect(c.personas[1]!.episodes[0]!.probes).toEqual([{ id: "q2", type: "custom label", query: "z" }]);
    expect(c.personas[0]!.episodes[0]).toMatchObject({ emotion: "joy", intensityBand: "high", valence: "positive" });
    expect(c.personas[1]!.episodes[0]!.intensityBand).toBeUndefined();
    expect(c.personas[1]!.episodes[0]!.timestampMs).toBe(Date.UTC(2025, 0, 1, 10));
    expect(c.referenceNowMs).toBe(Date.UTC(2025, 0, 6, 8));
  });

  it("warns (without failing) about a persona with 3 or fewer episodes and about unknown columns", async () => {
    const [e, p] = await files(
      [
        `${EP_HEADER},notes`,
        FOUR.split("\n")
          .slice(1)
          .map((l) => `${l},n`)
          .join("\n"),
        "s,s1,2025-01-01,short,,,,",
      ].join("\n"),
      [PR_HEADER, "s,p1,s1,factual,q"].join("\n"),
    );
    const c = await loadCsvCorpus(e, p);
    expect(c.warnings).toHaveLength(2);
    expect(c.warnings[0]).toMatch(/episodes\.csv:1: ignoring unknown column notes/);
    expect(c.warnings[1]).toMatch(/persona "s" has only 1 episode\b/);
    expect(c.personas.map((x) => x.id)).toEqual(["a", "s"]);
  });

  it("accepts CRLF line endings, a UTF-8 BOM, quoted commas and multi-line text", async () => {
    const [e, p] = await files(
      `\ufeff${EP_HEADER}\r\na,a1,2025-01-01T10:00:00Z,"one, two\r\nthree",low,neutral,\r\n`,
      `${PR_HEADER}\r\na,p1,a1,factual,"what, exactly?"\r\n`,
    );
    const c = await loadCsvCorpus(e, p);
    expect(c.personas[0]!.episodes[0]!.text).toBe("one, two\r\nthree");
    expect(c.personas[0]!.episodes[0]!.probes[0]!.query).toBe("what, exactly?");
  });
});

describe("CSV errors name the file and line", () => {
  it("missing columns", async () => {
    const issues = await csvIssues("persona_id,episode_id,date\na,a1,2025-01-01\n", "persona_id,probe_id,type,query\n");
    expect(issues).toHaveLength(2);
    expect(issues[0]!.where).toBe("episodes.csv:1");
    expect(issues[0]!.message).toMatch(/missing columns date_time, text/);
    expect(issues[1]!.where).toBe("probes.csv:1");
    expect(issues[1]!.message).toMatch(/missing column episode_id/);
  });

  it("duplicate episode and probe ids, with line numbers after a multi-line field", async () => {
    const issues = await csvIssues(
      [EP_HEADER, 'a,a1,2025-01-01,"line one', 'line two",,,', "", "a,a2,2025-01-02,x,,,", "a,a1,2025-01-03,y,,,"].join("\n"),
      [PR_HEADER, "a,p1,a1,factual,q", "a,p1,a2,factual,q"].join("\n"),
    );
    expect(issues).toEqual([
      { where: "episodes.csv:6", message: expect.stringMatching(/duplicate episode_id "a1" \(first at line 2\)/) },
      { where: "probes.csv:3", message: expect.stringMatching(/duplicate probe_id "p1" \(first at line 2\)/) },
    ]);
  });

  it("probe targets that do not exist or belong to another persona", async () => {
    const issues = await csvIssues(
      [EP_HEADER, "a,a1,2025-01-01,x,,,", "b,b1,2025-01-02,y,,,"].join("\n"),
      [PR_HEADER, "a,p1,zz,factual,q", "c,p2,a1,factual,q", "a,p3,b1,factual,q", "a,p4,a1,factual,fine"].join("\n"),
    );
    expect(issues.map((i) => i.where)).toEqual(["probes.csv:2", "probes.csv:3", "probes.csv:4"]);
    expect(issues[0]!.message).toMatch(/target episode_id "zz" does not exist/);
    expect(issues[1]!.message).toMatch(/persona_id "c" has no episodes/);
    expect(issues[2]!.message).toMatch(/"b1" belongs to persona "b" .*episodes\.csv:3.*not "a"/);
  });

  it("each problem is reported once: a probe aimed at a rejected episode row, or at an unusable episodes.csv, adds only its own", async () => {
    // a2's row is rejected (bad date); p1 targets it and is not reported again, p2 still fails its own id rule.
    expect(
      await csvIssues(
        [EP_HEADER, "a,a1,2025-01-01,x,,,", "a,a2,nope,y,,,"].join("\n"),
        [PR_HEADER, "a,p1,a2,factual,q", "a,p2,a1,factual,q", "a,p2,a1,factual,q"].join("\n"),
      ),
    ).toEqual([
      { where: "episodes.csv:3", message: expect.stringMatching(/unparseable date_time "nope"/) },
      { where: "probes.csv:4", message: expect.stringMatching(/duplicate probe_id "p2" \(first at line 3\)/) },
    ]);
    // episodes.csv lacks a column: probe rows are checked on their own (blank fields, repeated ids), never against it.
    expect(
      await csvIssues("persona_id,episode_id,text\na,a1,x\n", [PR_HEADER, "z,p1,zz,factual,", "z,p1,zz,factual,q"].join("\n")),
    ).toEqual([
      { where: "episodes.csv:1", message: expect.stringMatching(/missing column date_time/) },
      { where: "probes.csv:2", message: "empty query" },
      { where: "probes.csv:3", message: expect.stringMatching(/duplicate probe_id "p1"/) },
    ]);
  });

  it("unparseable dates, empty text and empty query", async () => {
    const issues = await csvIssues(
      [EP_HEADER, "a,a1,01/02/2025,x,,,", "a,a2,2025-02-30T10:00,x,,,", 'a,a3,2025-01-03,"  ",,,', "a,a4,2025-01-04,ok,,,"].join("\n"),
      [PR_HEADER, "a,p1,a4,factual,", "a,p2,a4,,q"].join("\n"),
    );
    expect(issues).toEqual([
      { where: "episodes.csv:2", message: expect.stringMatching(/unparseable date_time "01\/02\/2025"/) },
      { where: "episodes.csv:3", message: expect.stringMatching(/unparseable date_time "2025-02-30T10:00"/) },
      { where: "episodes.csv:4", message: "empty text" },
      { where: "probes.csv:2", message: "empty query" },
      { where: "probes.csv:3", message: "empty type" },
    ]);
  });

  it("a file with only a header row is file:line, for probes as for episodes", async () => {
    expect(await csvIssues(FOUR, `${PR_HEADER}\n`)).toEqual([
      { where: "probes.csv:1", message: "only a header row, no probe rows; add one row per probe below the header" },
    ]);
    expect((await csvIssues(`\n${EP_HEADER}\n`, `\n${PR_HEADER}\n`)).map((i) => i.where)).toEqual(["episodes.csv:2", "probes.csv:2"]);
  });

  it("malformed CSV and missing files", async () => {
    const issues = await csvIssues(
      [EP_HEADER, "a,a1,2025-01-01,x,,,", 'a,a2,2025-01-02,"unclosed,,,'].join("\n"),
      `${PR_HEADER}\na,a1-f,a1,factual,x`,
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]!.where).toMatch(/^episodes\.csv:\d+$/);
    expect(issues[0]!.message).toMatch(/not valid CSV: .*Quote Not Closed/);

    const ragged = await csvIssues([EP_HEADER, "a,a1,2025-01-01,x"].join("\n"), PR_HEADER);
    expect(ragged[0]!.where).toBe("episodes.csv:2");

    const err = await loadCsvCorpus("/no/such/episodes.csv", join(EXAMPLE, "probes.csv")).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toContain("/no/such/episodes.csv does not exist");
  });

  it("the error message lists every problem as file:line", async () => {
    const [e, p] = await files([EP_HEADER, "a,a1,nope,x,,,"].join("\n"), PR_HEADER);
    const err = await loadCsvCorpus(e, p).catch((x: unknown) => x);
    expect((err as Error).message).toContain(`${e}:2: unparseable date_time "nope"`);
  });
});

/** RFC 4180 field quoting. */
function q(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** Export an EpiRec-style corpus to the two CSV files in its natural order. */
function toCsv(c: EpisodicCorpus): { episodes: string; probes: string } {
  const ep = [EP_HEADER];
  const pr = [PR_HEADER];
  for (const p of c.personas) {
    for (const e of p.episodes) {
      ep.push([p.id, e.id, e.dateTime, e.text, e.intensityBand ?? "", e.valence ?? "", e.emotion ?? ""].map(q).join(","));
      for (const x of e.probes) pr.push([p.id, x.id, e.id, x.type, x.query].map(q).join(","));
    }
  }
  return { episodes: `${ep.join("\r\n")}\r\n`, probes: `${pr.join("\r\n")}\r\n` };
}

/** The retrieval-relevant content: everything except source metadata, persona profile and session numbers. */
function content(c: EpisodicCorpus) {
  return {
    referenceNow: c.referenceNow,
    referenceNowMs: c.referenceNowMs,
    personas: c.personas.map((p) => ({
      id: p.id,
      episodes: p.episodes.map(({ session: _session, ...rest }) => rest),
    })),
  };
}

describe("EpiRec exported to CSV", () => {
  it("round-trips to an identical corpus", async () => {
    const epirec = await loadEpiRec(pinnedDataOptions());
    const { episodes, probes } = toCsv(epirec);
    const [e, p] = await files(episodes, probes);
    const back = await loadCsvCorpus(e, p, { now: epirec.referenceNow, name: "epirec-csv" });
    expect(back.warnings).toEqual([]);
    expect(content(back)).toEqual(content(epirec));
    expect(corpusCounts(back)).toEqual({ personas: 12, episodes: 168, probes: 504 });
  });
});
