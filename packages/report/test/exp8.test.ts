/** The Exp. 8 (LongMemEval) section: rendered when its file is present, stating its numbers through the manifest. */
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PUBLISHED_CLAIMS } from "@persode/results";
const LONGMEMEVAL_PUBLISHED_CLAIMS = PUBLISHED_CLAIMS.filter((c) => c.dataset.startsWith("LongMemEval"));
import { renderAll } from "../src/render-all.js";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe("Exp. 8 in the report", () => {
  it("renders the official table, Persode's strategies and says the data is not the official LongMemEval", async () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-report-exp8-"));
    dirs.push(dir);
    cpSync(join(__dirname, "fixtures/exp8"), dir, { recursive: true });
    const readme = join(dir, "README.md");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(readme, "# r\n\n<!-- results:begin -->\n<!-- results:end -->\n");
    await renderAll({ resultsDir: dir, readmePath: readme });
    const md = readFileSync(readme, "utf8");
    expect(md).toContain("### Exp. 8 — LongMemEval retrieval");
    expect(md).toContain("Not the official LongMemEval data");
    const doc = JSON.parse(readFileSync(join(dir, "exp8_longmemeval.json"), "utf8")) as {
      official: Record<string, Record<string, { metrics: Record<string, Record<string, number>> }>>;
    };
    const turnAll5 = doc.official["flat-bm25"]!.turn!.metrics.turn!["recall_all@5"]!;
    expect(md).toMatch(new RegExp(`\\| turn \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| [0-9.]+ \\| ${turnAll5.toFixed(4)} \\|`));
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { entries: { id: string; value: unknown }[] };
    expect(manifest.entries.find((e) => e.id === "exp8.official.turn.turn.recall_all@5")?.value).toBe(Number(turnAll5.toFixed(4)));
    expect(manifest.entries.some((e) => e.id === "exp8.hashing.gated_persode.evidence_recall@5")).toBe(true);
    // the published figures stand beside ours as claims, each with its protocol and source
    expect(md).toContain("Published LongMemEval_S retrieval figures — claims under their own protocols, not measured here");
    for (const c of LONGMEMEVAL_PUBLISHED_CLAIMS)
      expect(md).toContain(`| ${c.system} | ${c.kind} | ${c.granularity} | ${c.measure} | ${c.k} | ${c.value.toFixed(4)} |`);
    expect(md).toContain("The LongMemEval paper's own retrieval table is not listed");
    // what the same system scores under each protocol of the ladder: every strategy, turn and session level, with CIs
    const ladder = (doc as any).runs.hashing.protocols as {
      family: string;
      questions: number;
      strategies: Record<string, Record<string, { values: Record<string, number>; ci95: Record<string, [number, number]> }>>;
    };
    expect(md).toContain(
      `Exp. 8 — the same rankings under each protocol of the ladder (docs/spec.md §11; has_answer/original, ${ladder.questions} questions), hashing embedder`,
    );
    const bm25 = ladder.strategies.bm25![ladder.family]!;
    const at = (id: string) => manifest.entries.find((e) => e.id === id)?.value;
    expect(at("exp8.hashing.bm25.protocols.session.any@5")).toBe(Number(bm25.values["session.any@5"]!.toFixed(3)));
    expect(at("exp8.hashing.bm25.protocols.turn.ndcg@10.ci95.lo")).toBe(Number(bm25.ci95["turn.ndcg@10"]![0].toFixed(2)));
    const slugs = (doc as any).meta.strategies as { key: string; slug: string }[];
    for (const s of Object.keys(ladder.strategies)) {
      const v = ladder.strategies[s]![ladder.family]!.values["turn.recall@5"]!;
      expect(at(`exp8.hashing.${slugs.find((r) => r.key === s)!.slug}.protocols.turn.recall@5`), s).toBe(Number(v.toFixed(3)));
    }
  });

  it("renders an outside system scored by longmemeval-eval --report beside the built-in strategies, official and ladder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "persode-report-exp8-outside-"));
    dirs.push(dir);
    cpSync(join(__dirname, "fixtures/exp8-outside"), dir, { recursive: true });
    await renderAll({ resultsDir: dir, publishedDir: dir });
    const doc = JSON.parse(readFileSync(join(dir, "exp8_longmemeval.json"), "utf8")) as any;
    const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { entries: { id: string; value: unknown }[] };
    const at = (id: string) => manifest.entries.find((e) => e.id === id)?.value;
    const html = readFileSync(join(dir, "report.html"), "utf8").replace(/<[^>]+>/g, "");
    // (a): the system's official session metrics in the official table, after flat-bm25's
    const official = doc.official["fixture system"].session.metrics.session as Record<string, number>;
    expect(at("exp8.official.outside-system.session.session.recall_any@5")).toBe(Number(official["recall_any@5"]!.toFixed(4)));
    expect(at("exp8.official.session.session.recall_any@5")).toBe(
      Number(doc.official["flat-bm25"].session.metrics.session["recall_any@5"].toFixed(4)),
    );
    expect(html).toContain("flat-bm25, and the outside system&#39;s rankings");
    // (b): its ladder table (a session file: session-level measures only), beside every strategy's with the hashing embedder
    const ours = doc.runs.outside.protocols.strategies["fixture system"]["has_answer/original"];
    expect(at("exp8.outside.outside-system.protocols.session.any@5")).toBe(Number(ours.values["session.any@5"].toFixed(3)));
    expect(at("exp8.outside.outside-system.protocols.session.any@5.ci95.hi")).toBe(Number(ours.ci95["session.any@5"][1].toFixed(2)));
    expect(at("exp8.outside.outside-system.protocols.turn.recall@5")).toBeUndefined();
    expect(html).toContain("21 questions), outside system;");
    const bm25 = doc.runs.hashing.protocols.strategies.bm25["has_answer/original"];
    expect(at("exp8.hashing.bm25.protocols.turn.recall@5")).toBe(Number(bm25.values["turn.recall@5"].toFixed(3)));
  });
});
