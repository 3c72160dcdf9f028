/**
 * Orchestration: read the results present, build the report model and figure specs, render SVG/PNG,
 * and write results/figures/*, results/manifest.json, results/report.html and (optionally) the README's
 * and the results document's generated sections (each in the layout its markers ask for: the README's
 * front, docs/results.md's full results) — or, in check mode, verify all of it without writing.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { writeFileAtomic } from "@persode/util";
import { buildFigureSpecs } from "./figures/index.js";
import { checkCostClaims, checkHtmlHonesty, checkReadmeHonesty } from "./honesty.js";
import { renderReportHtml, type RenderedFigure } from "./html.js";
import { compareManifests, parseManifest, reresolveEntries, serializeManifest, type Manifest } from "./manifest.js";
import { checkReadme, renderDocument, type MarkdownOptions } from "./markdown.js";
import { buildReportModel } from "./model.js";
import { FigureCache, figureKey } from "./figure-cache.js";
import { DEFAULT_FONT_FILES, renderSvg, requireFonts, scopeSvgIds, svgToPngAsync } from "./render.js";
import { presentExperiments, readResults, type Experiment, type ResultSet } from "@persode/results";

/** Options of renderAll and checkAll. */
export interface RenderOptions {
  /** Directory holding the results files; outputs go to it (figures/, manifest.json, report.html). */
  resultsDir: string;
  /** README whose generated section to write (renderAll) or verify (checkAll); omitted = leave README alone. */
  readmePath?: string;
  /**
   * Where the results will be published when `resultsDir` is a staging folder (`pnpm bench` renders
   * into one, then moves it into place): README links point here. Default: `resultsDir`.
   */
  publishedDir?: string;
  /** Write the README text here instead of over `readmePath` (to publish it with a staged results folder). */
  readmeOut?: string;
  /** The full results document (docs/results.md) whose generated section to write or verify; the README's findings link to it. */
  resultsDocPath?: string;
  /** Write the results document here instead of over `resultsDocPath` (staged publishing). */
  resultsDocOut?: string;
  /** Font files for PNG rendering (default: DejaVu Sans from fonts-dejavu-core). */
  fontFiles?: readonly string[];
  /**
   * A folder of figures rendered before, by content (figure-cache.ts): a figure whose spec did not change is not rendered again. Default:
   * none.
   */
  figureCache?: string;
}

/** What renderAll produced. */
export interface RenderSummary {
  experiments: Experiment[];
  /** Every file written, relative to the results directory. */
  files: string[];
  manifestPath: string;
  reportPath: string;
  readmePath?: string;
  readmeChanged: boolean;
  resultsDocPath?: string;
  resultsDocChanged: boolean;
  /** Wall-clock milliseconds: figure rendering and the whole call (informational, never asserted). */
  timings: { figuresMs: number; totalMs: number };
}

/** Outcome of checkAll: ok when nothing drifted. */
export interface CheckSummary {
  ok: boolean;
  problems: string[];
}

/** Outputs computed in memory, keyed by path relative to the results directory. */
interface Outputs {
  set: ResultSet;
  model: ReturnType<typeof buildReportModel>;
  files: Map<string, string | Buffer>;
  figuresMs: number;
}

function posix(p: string): string {
  return p.split(sep).join("/");
}

/** README link targets for a results directory (and the results document, when there is one), relative to the README's folder. */
export function markdownOptions(resultsDir: string, readmePath: string, resultsDocPath?: string): MarkdownOptions {
  const from = dirname(resolve(readmePath));
  let rel = posix(relative(from, resolve(resultsDir)));
  if (rel === "") rel = ".";
  return {
    figuresHref: `${rel}/figures`,
    reportHref: `${rel}/report.html`,
    ...(resultsDocPath ? { resultsDocHref: posix(relative(from, resolve(resultsDocPath))) } : {}),
  };
}

/** The generated documents of a call: the README and the results document, each with where it is written. */
function documentsOf(opts: RenderOptions): Array<{ path: string; out: string }> {
  return [
    ...(opts.readmePath ? [{ path: opts.readmePath, out: opts.readmeOut ?? opts.readmePath }] : []),
    ...(opts.resultsDocPath ? [{ path: opts.resultsDocPath, out: opts.resultsDocOut ?? opts.resultsDocPath }] : []),
  ];
}

async function computeOutputs(
  resultsDir: string,
  fontFiles: readonly string[],
  manifestOverride?: Manifest,
  figureCache?: string,
): Promise<Outputs> {
  const set = readResults(resultsDir);
  if (presentExperiments(set).length === 0) throw new Error(`no results files in ${resultsDir} — run \`pnpm bench all\` first`);
  const model = buildReportModel(set);
  const manifest = manifestOverride ?? model.manifest;
  const fonts = requireFonts(fontFiles);
  const files = new Map<string, string | Buffer>();
  const t0 = performance.now();
  const rendered: RenderedFigure[] = [];
  const pngs: Array<Promise<Buffer>> = [];
  const cache = figureCache ? new FigureCache(figureCache) : undefined;
  const fresh: { key: string; svg: string; at: number }[] = [];
  for (const figure of buildFigureSpecs(set)) {
    const key = cache ? figureKey(figure.spec, figure.id, fonts) : "";
    const hit = cache?.get(key);
    const svg = hit?.svg ?? scopeSvgIds(await renderSvg(figure.spec, figure.id), figure.id);
    rendered.push({ figure, svg });
    files.set(`figures/${figure.id}.vl.json`, JSON.stringify(figure.spec, null, 2) + "\n");
    files.set(`figures/${figure.id}.svg`, svg.endsWith("\n") ? svg : svg + "\n");
    if (hit) pngs.push(Promise.resolve(hit.png));
    else {
      if (cache) fresh.push({ key, svg, at: pngs.length });
      pngs.push(svgToPngAsync(svg, fonts));
    }
  }
  const rasters = await Promise.all(pngs);
  rendered.forEach((r, i) => files.set(`figures/${r.figure.id}.png`, rasters[i]!));
  for (const f of fresh) await cache!.put(f.key, f.svg, rasters[f.at]!);
  const figuresMs = performance.now() - t0;
  files.set("manifest.json", serializeManifest(model.manifest));
  files.set("report.html", renderReportHtml(model.sections, manifest, rendered, set));
  return { set, model, files, figuresMs };
}

/**
 * Render everything from the results in `resultsDir`: figures (Vega-Lite JSON, SVG, PNG), the
 * manifest, the HTML report and, when `readmePath` is given, the README's generated section
 * (creating the README with a `## Results` heading and the markers when it does not exist).
 */
export async function renderAll(opts: RenderOptions): Promise<RenderSummary> {
  const t0 = performance.now();
  const out = await computeOutputs(opts.resultsDir, opts.fontFiles ?? DEFAULT_FONT_FILES, undefined, opts.figureCache);
  const docs = documentsOf(opts).map((d) => {
    const before = existsSync(d.path) ? readFileSync(d.path, "utf8") : undefined;
    const text = renderDocument(
      before,
      out.model.sections,
      out.model.manifest,
      markdownOptions(opts.publishedDir ?? opts.resultsDir, d.path, opts.resultsDocPath),
      d.path,
    );
    return { source: d.path, path: d.out, text, changed: text !== before };
  });
  for (const [rel, data] of out.files) await writeFileAtomic(join(opts.resultsDir, rel), data);
  for (const d of docs) if (d.changed) await writeFileAtomic(d.path, d.text);
  const readme = opts.readmePath ? docs.find((d) => d.source === opts.readmePath) : undefined;
  const resultsDoc = opts.resultsDocPath ? docs.find((d) => d.source === opts.resultsDocPath) : undefined;
  return {
    experiments: presentExperiments(out.set),
    files: [...out.files.keys()],
    manifestPath: join(opts.resultsDir, "manifest.json"),
    reportPath: join(opts.resultsDir, "report.html"),
    ...(readme ? { readmePath: readme.path } : {}),
    readmeChanged: readme?.changed ?? false,
    ...(resultsDoc ? { resultsDocPath: resultsDoc.path } : {}),
    resultsDocChanged: resultsDoc?.changed ?? false,
    timings: { figuresMs: Math.round(out.figuresMs), totalMs: Math.round(performance.now() - t0) },
  };
}

/**
 * Verify without writing: the committed manifest against a recomputation from the results files,
 * the README's generated section and cost statements against the manifest, the report's cost
 * statements, and every generated file against a fresh in-memory render.
 */
export async function checkAll(opts: RenderOptions): Promise<CheckSummary> {
  const problems: string[] = [];
  const manifestPath = join(opts.resultsDir, "manifest.json");
  if (!existsSync(manifestPath))
    return { ok: false, problems: [`${manifestPath} does not exist — run \`pnpm report\` (or \`pnpm bench all\`) to create it`] };
  const committed = parseManifest(readFileSync(manifestPath, "utf8"), manifestPath);
  const out = await computeOutputs(opts.resultsDir, opts.fontFiles ?? DEFAULT_FONT_FILES, committed, opts.figureCache);
  problems.push(...compareManifests(committed, out.model.manifest), ...reresolveEntries(committed, out.set));
  problems.push(...checkCostClaims(out.model.sections, committed));
  const mdOpts = opts.readmePath
    ? markdownOptions(opts.resultsDir, opts.readmePath, opts.resultsDocPath)
    : { figuresHref: "results/figures", reportHref: "results/report.html" };
  for (const d of documentsOf(opts)) {
    if (!existsSync(d.path)) problems.push(`${d.path} does not exist — run \`pnpm report\` to create its results section`);
    else {
      const text = readFileSync(d.path, "utf8");
      const docOpts = markdownOptions(opts.resultsDir, d.path, opts.resultsDocPath);
      problems.push(...checkReadmeHonesty(text, out.model.sections, committed, docOpts, d.path));
      problems.push(...checkReadme(text, out.model.sections, committed, docOpts, d.path));
    }
  }
  const reportPath = join(opts.resultsDir, "report.html");
  if (existsSync(reportPath))
    problems.push(...checkHtmlHonesty(readFileSync(reportPath, "utf8"), out.model.sections, committed, mdOpts, reportPath));
  for (const [rel, data] of out.files) {
    const path = join(opts.resultsDir, rel);
    if (rel === "manifest.json") continue; // compared entry by entry above, with tolerances
    if (!existsSync(path)) problems.push(`${path} is missing — run \`pnpm report\``);
    else if (!readFileSync(path).equals(typeof data === "string" ? Buffer.from(data, "utf8") : data))
      problems.push(`${path} is out of date with the results — run \`pnpm report\``);
  }
  return { ok: problems.length === 0, problems };
}
