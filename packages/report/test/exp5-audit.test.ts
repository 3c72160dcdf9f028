import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exp5AuditFigures } from "../src/figures/exp5-audit.js";
import { ManifestRecorder, statedText } from "../src/manifest.js";
import { renderReadmeSection } from "../src/markdown.js";
import { benchTarget, getValue, readResults } from "@persode/results";
import { exp5AuditSection } from "../src/sections/exp5-audit.js";
import { REPO_ROOT, editJson, tempWorkspace } from "./helpers.js";

/** A workspace holding the fixture results plus the repository's audited-gold results file. */
function workspace() {
  const ws = tempWorkspace();
  copyFileSync(join(REPO_ROOT, "results", "exp5_locomo_audited.json"), join(ws.results, "exp5_locomo_audited.json"));
  return ws;
}

function build(results: string) {
  const doc = readResults(results).docs["exp5-audit"]!;
  const rec = new ManifestRecorder();
  const section = exp5AuditSection(doc, rec);
  return { doc, section, manifest: rec.manifest(["exp5_locomo_audited.json"]) };
}

describe("Exp. 5 on audited evidence (report)", () => {
  it("states original, audited and paired recall, the paired difference with its CI, for every strategy and embedder, each pinned in the manifest", () => {
    const ws = workspace();
    const { doc, section, manifest } = build(ws.results);
    const data = doc.data as unknown as { runs: Record<string, { strategies: Record<string, any> }> };
    const tables = section.blocks.filter((b) => b.kind === "table");
    expect(tables).toHaveLength(Object.keys(data.runs).length);
    let checked = 0;
    for (const [emb, run] of Object.entries(data.runs)) {
      for (const [s, v] of Object.entries(run.strategies)) {
        // manifest ids carry the slug the file records (e.g. "combsum" for "combsum (bm25 + cosine)")
        const slug = doc.data.meta.strategies!.find((r) => r.key === s)!.slug;
        const entry = (id: string) => manifest.entries.find((e) => e.id === `exp5-audit.${emb}.${slug}.${id}`)!;
        expect(entry("original.evidence_recall@5").value).toBe(v.original["evidence_recall@5"]);
        expect(entry("audited.evidence_recall@5").value).toBe(v.audited["evidence_recall@5"]);
        expect(entry("paired.evidence_recall@5.ci95.lo").value).toBe(v.audited_minus_original["evidence_recall@5"].ci95[0]);
        expect(entry("paired.evidence_recall@5.diff").value).toBe(v.audited_minus_original["evidence_recall@5"].diff);
        expect(entry("paired.evidence_recall@10.ci95.hi").value).toBe(v.audited_minus_original["evidence_recall@10"].ci95[1]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
    const md = renderReadmeSection([section], manifest, { figuresHref: "results/figures", reportHref: "results/report.html" });
    expect(md).toContain("### Exp. 5 — LoCoMo with audited evidence");
    expect(md).toContain("(results/figures/exp5_audited.png)");
    expect(md).toContain("a second label set, not ground truth");
    expect(md).toContain("CC BY-NC 4.0");
    expect(statedText(manifest, "exp5-audit.became_empty")).toBe(
      String(getValue(doc, ["runs", "hashing", "evidence_changes", "became_empty"])),
    );
    expect(section.notes.map((n) => n.label)).toContain("Rule: empty evidence rule");
  });

  it("flags a run whose top-k reaches a store's size", () => {
    const ws = workspace();
    editJson(join(ws.results, "exp5_locomo_audited.json"), (d) => {
      d.runs.hashing.top_k_guard = { top_ks: [5, 10], store_sizes: { min: 8, max: 689 }, flagged: true, conversations: ["conv-26"] };
    });
    const { section, manifest } = build(ws.results);
    const md = renderReadmeSection([section], manifest, { figuresHref: "f", reportHref: "r/report.html" });
    expect(md).toContain("hashing: some stores hold no more memories than a top-k (conv-26): recall@k is trivially 1 there.");
  });

  it("figures: original vs audited recall@5 per strategy with CIs, and the paired differences, read from the file", () => {
    const ws = workspace();
    const { doc } = build(ws.results);
    const [main, paired] = exp5AuditFigures(doc);
    expect(main!.id).toBe("exp5_audited");
    expect(paired!.id).toBe("exp5_audited_paired");
    const rows = (main!.spec as any).data.values as Array<{ strategy: string; gold: string; value: number; lo: number; hi: number }>;
    const fused = (doc.data as any).runs.hashing.strategies["fused (Persode)"];
    expect(rows.find((r) => r.strategy === "fused (Persode)" && r.gold === "audited gold")).toMatchObject({
      value: fused.audited["evidence_recall@5"],
      lo: fused.audited.ci95["evidence_recall@5"][0],
    });
    expect(rows.find((r) => r.strategy === "fused (Persode)" && r.gold === "original gold")!.value).toBe(
      fused.original["evidence_recall@5"],
    );
    expect(new Set(rows.map((r) => r.gold))).toEqual(new Set(["original gold", "audited gold"]));
    expect(benchTarget("exp5-audit")).toBe("exp5");
  });
});
