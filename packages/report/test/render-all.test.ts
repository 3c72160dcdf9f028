import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkAll, renderAll } from "../src/render-all.js";
import { requireFonts } from "../src/render.js";
import { BEGIN_MARKER } from "../src/markdown.js";
import { editJson, tempWorkspace } from "./helpers.js";

function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (/\.(json|svg|png|html)$/.test(name)) files.set(name, readFileSync(join(dir, name)));
  }
  return files;
}

describe("renderAll and checkAll (fixture results)", () => {
  const ws = tempWorkspace();
  let summary: Awaited<ReturnType<typeof renderAll>>;
  beforeAll(async () => {
    writeFileSync(ws.readme, `# Project\n\nIntro.\n\n## Results\n\n${BEGIN_MARKER}\n<!-- results:end -->\n\n## More\n`);
    summary = await renderAll({ resultsDir: ws.results, readmePath: ws.readme });
  }, 60_000);

  it("writes figures, manifest, report and the README section", () => {
    expect(summary.experiments).toEqual(["exp1", "exp2", "exp3", "exp4", "exp5", "exp6"]);
    for (const ext of [".vl.json", ".svg", ".png"]) expect(summary.files.filter((f) => f.endsWith(ext))).toHaveLength(10);
    expect(summary.files).toContain("manifest.json");
    expect(summary.files).toContain("report.html");
    expect(summary.readmeChanged).toBe(true);
    const readme = readFileSync(ws.readme, "utf8");
    expect(readme.startsWith("# Project\n\nIntro.\n\n## Results\n\n")).toBe(true);
    expect(readme.endsWith("<!-- results:end -->\n\n## More\n")).toBe(true);
    expect(readme).toContain("![Ebbinghaus retention");
    expect(readme).toContain("(results/figures/exp5_locomo.png)");
  });

  it("writes a self-contained report: inline SVG, no scripts, no remote resources", () => {
    const html = readFileSync(join(ws.results, "report.html"), "utf8");
    expect(html.match(/<figure class="figure"/g)).toHaveLength(10);
    expect(html.match(/<svg /g)?.length).toBe(10);
    expect(html).not.toMatch(/<script|<link |src="http|@import/);
    expect(html).toContain("79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4");
    expect(html).toContain("CC BY-NC 4.0");
    expect(html).toContain('class="cost" data-cost="exp5-ungated-gap"');
  });

  it("re-renders byte for byte and then checks clean", async () => {
    const before = snapshot(ws.results);
    const readme = readFileSync(ws.readme);
    const again = await renderAll({ resultsDir: ws.results, readmePath: ws.readme });
    expect(again.readmeChanged).toBe(false);
    const after = snapshot(ws.results);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [name, bytes] of before) expect(after.get(name)!.equals(bytes), name).toBe(true);
    expect(readFileSync(ws.readme).equals(readme)).toBe(true);
    expect(await checkAll({ resultsDir: ws.results, readmePath: ws.readme })).toEqual({ ok: true, problems: [] });
  }, 60_000);

  it("check fails naming the entry when a pinned results value changes", async () => {
    const copy = tempWorkspace();
    await renderAll({ resultsDir: copy.results, readmePath: copy.readme });
    editJson(join(copy.results, "exp3_retrieval.json"), (d) => {
      d.conditions.plain["fused (Persode)"].target_recall = 0.9;
    });
    const r = await checkAll({ resultsDir: copy.results, readmePath: copy.readme });
    expect(r.ok).toBe(false);
    expect(r.problems.join("\n")).toContain(
      "manifest entry exp3.plain.fused_persode.recall@3 drifted: committed 0.80, results now give 0.90",
    );
  }, 60_000);

  it("check fails naming the cost when a cost sentence is deleted from the README", async () => {
    const copy = tempWorkspace();
    await renderAll({ resultsDir: copy.results, readmePath: copy.readme });
    const text = readFileSync(copy.readme, "utf8");
    const line = text.split("\n").find((l) => l.startsWith("**Cost.** Ungated fusion"))!;
    writeFileSync(copy.readme, text.replace(line + "\n", ""));
    const r = await checkAll({ resultsDir: copy.results, readmePath: copy.readme });
    expect(r.ok).toBe(false);
    expect(r.problems[0]).toContain("no longer states the Exp. 5 LoCoMo recall gap of ungated fusion [exp5-ungated-gap]");
  }, 60_000);

  it("check fails when a generated file is stale or the manifest is missing", async () => {
    const copy = tempWorkspace();
    await renderAll({ resultsDir: copy.results });
    writeFileSync(join(copy.results, "figures", "exp2_weight_ablation.svg"), "<svg/>\n");
    const r = await checkAll({ resultsDir: copy.results });
    expect(r.problems).toEqual([
      `${join(copy.results, "figures", "exp2_weight_ablation.svg")} is out of date with the results — run \`pnpm report\``,
    ]);
    const empty = tempWorkspace();
    expect((await checkAll({ resultsDir: empty.results })).problems[0]).toMatch(/manifest\.json does not exist — run `pnpm report`/);
  }, 60_000);
});

describe("fonts", () => {
  it("says which package to install when the font is missing", () => {
    expect(() => requireFonts(["/nonexistent/DejaVuSans.ttf"])).toThrow(/apt-get install -y fonts-dejavu-core/);
  });
});
