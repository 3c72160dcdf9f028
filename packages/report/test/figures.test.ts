import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreAxisTop } from "../src/figures/common.js";
import { buildFigureSpecs } from "../src/figures/index.js";
import { buildReportModel } from "../src/model.js";
import { renderReadmeSection } from "../src/markdown.js";
import { DEFAULT_FONT_FILES, renderSvg, scopeSvgIds, svgToPng } from "../src/render.js";
import { readResults, type StrategyRecord } from "@persode/results";
import { EXTRA_STRATEGY_COLOURS, OKABE_ITO, strategyColours } from "../src/style.js";
import { editJson, FIXTURE_RESULTS, tempWorkspace } from "./helpers.js";

/** Every {domain, range} colour scale over the strategy field found anywhere in a spec. */
function strategyScales(
  node: unknown,
  out: Array<{ domain: string[]; range: string[] }> = [],
): Array<{ domain: string[]; range: string[] }> {
  if (Array.isArray(node)) node.forEach((n) => strategyScales(n, out));
  else if (node && typeof node === "object") {
    const o = node as Record<string, any>;
    if (o.field === "strategy" && o.scale?.range) out.push({ domain: o.scale.domain, range: o.scale.range });
    Object.values(o).forEach((v) => strategyScales(v, out));
  }
  return out;
}

function panelsOf(spec: any): string[] {
  return [...new Set((spec.data.values as Array<{ panel: string }>).map((r) => r.panel))];
}

/** The strategy records the fixture's Exp. 5 file carries: the paper's five, built in. */
const BUILT_IN: StrategyRecord[] = readResults(FIXTURE_RESULTS).docs.exp5!.data.meta.strategies!;

describe("figure specs", () => {
  const figures = buildFigureSpecs(readResults(FIXTURE_RESULTS));

  it("covers every experiment with the figures the issue asks for", () => {
    expect(figures.map((f) => f.id)).toEqual([
      "exp1_forgetting",
      "exp2_weight_ablation",
      "exp3_strategies",
      "exp3_categories",
      "exp3_alpha_sweep",
      "exp4_personalization",
      "exp5_locomo",
      "exp5_paired",
      "exp6_epirec",
      "exp6_paired",
    ]);
  });

  it("gives each strategy one colour in every figure, registry order first", () => {
    const colour = new Map<string, string>();
    for (const f of figures) {
      for (const s of strategyScales(f.spec)) {
        s.domain.forEach((k, i) => {
          if (colour.has(k)) expect(colour.get(k), `${f.id}: ${k}`).toBe(s.range[i]);
          else colour.set(k, s.range[i]!);
        });
      }
    }
    expect(BUILT_IN.map((r) => r.built_in)).toEqual([true, true, true, true, true]);
    expect([...colour.keys()].sort()).toEqual(BUILT_IN.map((r) => r.key).sort());
    expect(new Set(colour.values()).size).toBe(BUILT_IN.length);
    expect(colour.get("fused (Persode)")).toBe(OKABE_ITO.vermillion);
  });

  it("colours user-registered strategies too, lists them in their recorded order and uses their recorded slug", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp5_locomo.json"), (d) => {
      for (const run of Object.values<any>(d.runs)) {
        const extra = JSON.parse(JSON.stringify(run.strategies["similarity-only"]));
        run.strategies = { "my-bm25": extra, ...run.strategies };
      }
      d.meta.strategies.push({ key: "my-bm25", slug: "bm25_plugin", order: 5, built_in: false });
    });
    const set = readResults(ws.results);
    const exp5 = buildFigureSpecs(set).find((f) => f.id === "exp5_locomo")!;
    const [scale] = strategyScales(exp5.spec);
    expect(scale!.domain).toEqual([...BUILT_IN.map((r) => r.key), "my-bm25"]);
    expect(scale!.range[5]).toBe(EXTRA_STRATEGY_COLOURS[0]);
    const model = buildReportModel(set);
    expect(renderReadmeSection(model.sections, model.manifest, { figuresHref: "f", reportHref: "r.html" })).toMatch(
      /\| my-bm25 \| 0\.1525 \[/,
    );
    // The manifest names the plugin by the slug its file records, not one re-derived from its key ("my-bm25").
    const ids = model.manifest.entries.map((e) => e.id);
    expect(ids).toContain("exp5.hashing.bm25_plugin.evidence_recall@5");
    expect(ids.some((id) => id.includes("my-bm25"))).toBe(false);
    const extras = ["a", "b", "c", "d", "e"].map((key, order) => ({ key, slug: key, order, built_in: false }));
    expect(strategyColours(extras)).toEqual([...EXTRA_STRATEGY_COLOURS, EXTRA_STRATEGY_COLOURS[0]]);
  });

  it("refuses a results file whose strategies have no record", () => {
    const ws = tempWorkspace();
    editJson(join(ws.results, "exp5_locomo.json"), (d) => {
      d.meta.strategies = d.meta.strategies.filter((r: StrategyRecord) => r.key !== "salience-only");
    });
    expect(() => readResults(ws.results)).toThrow(
      /exp5_locomo\.json is not a complete exp5 results file: runs\.hashing\.strategies: strategy "salience-only" has no record in meta\.strategies.*rerun `pnpm bench exp5`/,
    );
  });

  it("draws one panel per embedder present", () => {
    const both = figures.find((f) => f.id === "exp6_epirec")!;
    expect(panelsOf(both.spec)).toEqual(["hashing embedder", "all-MiniLM-L6-v2 embedder"]);
    const ws = tempWorkspace();
    for (const file of ["exp5_locomo.json", "exp6_epirec.json"]) editJson(join(ws.results, file), (d) => delete d.runs["all-MiniLM-L6-v2"]);
    const only = buildFigureSpecs(readResults(ws.results));
    expect(panelsOf(only.find((f) => f.id === "exp5_locomo")!.spec)).toEqual(["hashing embedder (1535 questions)"]);
    expect(panelsOf(only.find((f) => f.id === "exp6_epirec")!.spec)).toEqual(["hashing embedder"]);
  });

  it("draws CI whiskers from the results' ci95 blocks", () => {
    const exp5 = figures.find((f) => f.id === "exp5_locomo")!.spec as any;
    const row = exp5.data.values.find(
      (r: any) => r.panel.startsWith("hashing") && r.strategy === "fused (Persode)" && r.group === "recall@5",
    );
    const file = readResults(FIXTURE_RESULTS).docs.exp5!.data as any;
    expect([row.lo, row.hi]).toEqual(file.runs.hashing.strategies["fused (Persode)"].ci95["evidence_recall@5"]);
  });
});

describe("headless rendering", () => {
  it("renders a spec to SVG and PNG deterministically", async () => {
    const fig = buildFigureSpecs(readResults(FIXTURE_RESULTS)).find((f) => f.id === "exp3_strategies")!;
    const a = scopeSvgIds(await renderSvg(fig.spec), fig.id);
    const b = scopeSvgIds(await renderSvg(fig.spec), fig.id);
    expect(a).toBe(b);
    expect(a.startsWith("<svg")).toBe(true);
    expect(a).toContain("fused (Persode)");
    const pngA = svgToPng(a, DEFAULT_FONT_FILES);
    expect(pngA.subarray(1, 4).toString()).toBe("PNG");
    expect(pngA.equals(svgToPng(b, DEFAULT_FONT_FILES))).toBe(true);
  });

  it("scopes SVG ids per figure and rewrites their references", () => {
    const svg = '<svg><clipPath id="clip7"><rect/></clipPath><g clip-path="url(#clip7)"/><use href="#clip7"/><g id="clip70"/></svg>';
    expect(scopeSvgIds(svg, "fig")).toBe(
      '<svg><clipPath id="fig-1"><rect/></clipPath><g clip-path="url(#fig-1)"/><use href="#fig-1"/><g id="fig-2"/></svg>',
    );
  });

  it("treats a Vega-Lite warning as an error naming the figure", async () => {
    const bad = {
      data: { values: [{ a: 1 }] },
      mark: "bar",
      encoding: { x: { field: "a", type: "quantitative" }, y: { field: "a", type: "quantitative", aggregate: "nonsense" } },
    };
    await expect(renderSvg(bad, "broken_fig")).rejects.toThrow(/broken_fig/);
  });
});

describe("palettes and axes", () => {
  const figures = buildFigureSpecs(readResults(FIXTURE_RESULTS));

  it("uses strategy colours for strategies only: every other colour comes from SERIES_COLOURS", () => {
    const strategyPalette = new Set<string>([...strategyColours(BUILT_IN), ...EXTRA_STRATEGY_COLOURS]);
    const misuses: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, where));
      if (!node || typeof node !== "object") return;
      const o = node as Record<string, any>;
      if (o.field !== "strategy" && Array.isArray(o.scale?.range)) {
        for (const c of o.scale.range) if (strategyPalette.has(c)) misuses.push(`${where}: ${o.field} uses ${c}`);
      }
      if (typeof o.color === "string" && strategyPalette.has(o.color)) misuses.push(`${where}: a mark uses ${o.color}`);
      for (const [k, v] of Object.entries(o)) if (k !== "scale" || o.field !== "strategy") walk(v, where);
    };
    for (const f of figures) walk(f.spec, f.id);
    expect(misuses).toEqual([]);
    // the check can see a misuse: the strategy scales themselves are full of palette colours
    expect(figures.some((f) => JSON.stringify(f.spec).includes(OKABE_ITO.vermillion))).toBe(true);
  });

  it("scales score axes to the data, never cutting a whisker", () => {
    expect([scoreAxisTop(0.2339), scoreAxisTop(0.25), scoreAxisTop(0.35), scoreAxisTop(0.91), scoreAxisTop(0)]).toEqual([
      0.25, 0.25, 0.35, 1, 0.05,
    ]);
    const exp5 = figures.find((f) => f.id === "exp5_locomo")!.spec as any;
    const top = exp5.spec.layer[0].encoding.y.scale.domain[1] as number;
    const highest = Math.max(...exp5.data.values.map((r: any) => Math.max(r.value, r.hi ?? 0)));
    expect(top).toBeGreaterThanOrEqual(highest);
    expect(top).toBeLessThan(1);
  });

  it("breaks multi-word group labels into lines instead of truncating them", () => {
    const exp6 = figures.find((f) => f.id === "exp6_epirec")!.spec as any;
    expect(exp6.spec.layer[0].encoding.x.axis.labelExpr).toBe("split(datum.label, ' ')");
  });
});
