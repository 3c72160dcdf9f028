import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pyRound } from "@persode/util";
import { parsePath, resolvePath } from "@persode/results";
import {
  compareManifests,
  entryValue,
  parseManifest,
  reresolveEntries,
  serializeManifest,
  statedText,
  type Manifest,
} from "../src/manifest.js";
import { buildManifest } from "../src/model.js";
import { readResults } from "@persode/results";
import { editJson, FIXTURE_RESULTS, tempWorkspace } from "./helpers.js";

describe("regression manifest", () => {
  const set = readResults(FIXTURE_RESULTS);
  const manifest = buildManifest(set);

  it("pins every entry to a number in its results file, rounded to the stated precision", () => {
    expect(manifest.entries.length).toBeGreaterThan(200);
    for (const e of manifest.entries) {
      const raw = resolvePath(JSON.parse(readFileSync(join(FIXTURE_RESULTS, e.file), "utf8")), parsePath(e.path));
      expect(typeof raw, e.id).toBe("number");
      expect(e.value, e.id).toBe(pyRound(raw as number, e.precision));
    }
    expect(new Set(manifest.entries.map((e) => e.id)).size).toBe(manifest.entries.length);
  });

  it("looks stated values up by id as a linear search would, and sees entries added or arrays replaced afterwards", () => {
    for (const e of manifest.entries.slice(0, 50)) expect(entryValue(manifest, e.id), e.id).toBe(e.value);
    const m: Manifest = { format: "f", path_syntax: "p", sources: [], entries: [], texts: [] };
    const entry = (id: string, value: number) => ({ id, file: "a.json", path: "x", value, precision: 2, tolerance: 0 });
    expect(() => statedText(m, "a")).toThrow(/no entry "a"/);
    m.entries.push(entry("a", 0.5), entry("a", 0.25)); // the first of a repeated id wins, as Array.find would
    expect(statedText(m, "a")).toBe("0.50");
    m.texts.push({ id: "t", file: "a.json", path: "y", value: true });
    expect(statedText(m, "t")).toBe("yes");
    m.entries = [entry("b", 0.125)];
    expect(entryValue(m, "b")).toBe(0.125);
    expect(() => entryValue(m, "a")).toThrow(/no numeric entry "a"/);
  });

  it("states the headline numbers of the paper's evaluation", () => {
    const v = (id: string) => manifest.entries.find((e) => e.id === id)?.value;
    expect(v("exp3.plain.fused_persode.recall@3")).toBe(0.8);
    expect(v("exp3.plain.similarity-only.recall@3")).toBe(1);
    expect(v("exp5.hashing.fused_persode.evidence_recall@5")).toBe(0.1347);
    expect(v("exp6.hashing.similarity-only.overall.r3")).toBe(0.552);
    expect(v("exp1.strength_at_30_days.ratio")).toBe(148.6);
    expect(v("exp2.focus.ratio_emotion_heavy_vs_balanced")).toBe(2.6);
  });

  it("gives exact values tolerance 0 and model-embedder values a small tolerance", () => {
    for (const e of manifest.entries) {
      if (e.id.includes(".all-MiniLM-L6-v2.") && !e.id.includes(".gate.")) expect(e.tolerance, e.id).toBeGreaterThan(0);
      else expect(e.tolerance, e.id).toBe(0);
    }
  });

  it("serializes deterministically and parses back", () => {
    const text = serializeManifest(manifest);
    expect(serializeManifest(buildManifest(readResults(FIXTURE_RESULTS)))).toBe(text);
    expect(parseManifest(text, "manifest.json")).toEqual(manifest);
    expect(() => parseManifest('{"format":"other"}', "m.json")).toThrow(/m\.json: format/);
  });

  it("names the entry, the committed and the new value when a pinned value changes", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp5_locomo.json"), (d) => {
      d.runs.hashing.strategies["fused (Persode)"]["evidence_recall@5"] = 0.1351;
    });
    const now = readResults(ws.results);
    const problems = compareManifests(manifest, buildManifest(now));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("exp5.hashing.fused_persode.evidence_recall@5");
    expect(problems[0]).toContain("committed 0.1347");
    expect(problems[0]).toContain("now give 0.1351");
    expect(reresolveEntries(manifest, now).join("\n")).toContain("exp5.hashing.fused_persode.evidence_recall@5 drifted");
  });

  it("names the entry when the committed manifest's tolerance is loosened by hand", () => {
    const loosened = structuredClone(manifest);
    const entry = loosened.entries.find((e) => e.id === "exp5.hashing.fused_persode.evidence_recall@5")!;
    entry.tolerance = 1;
    expect(compareManifests(loosened, manifest)).toEqual([
      "manifest entry exp5.hashing.fused_persode.evidence_recall@5: tolerance changed from 1 to 0 — regenerate with `pnpm report`",
    ]);
  });

  it("accepts a model-embedder change inside its tolerance and rejects one outside", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp6_epirec.json"), (d) => {
      d.runs["all-MiniLM-L6-v2"].strategies["fused (Persode)"].overall.r3 = 0.806; // committed 0.804, tolerance 0.002
    });
    expect(compareManifests(manifest, buildManifest(readResults(ws.results)))).toEqual([]);
    editJson(join(ws.results, "exp6_epirec.json"), (d) => {
      d.runs["all-MiniLM-L6-v2"].strategies["fused (Persode)"].overall.r3 = 0.81;
    });
    const problems = compareManifests(manifest, buildManifest(readResults(ws.results)));
    expect(problems.join("\n")).toContain(
      "exp6.all-MiniLM-L6-v2.fused_persode.overall.r3 drifted: committed 0.804, results now give 0.810",
    );
  });

  it("fails with the file, the path and the fix when a stated value is missing", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp3_retrieval.json"), (d) => {
      delete d.conditions.plain["fused (Persode)"].emotional_intrusion;
    });
    expect(() => buildManifest(readResults(ws.results))).toThrow(
      /exp3_retrieval\.json: conditions\.plain\["fused \(Persode\)"\]\.emotional_intrusion is missing — rerun `pnpm bench exp3`/,
    );
  });
});
