/**
 * The self-contained HTML report (results/report.html): every section, table, cost statement and
 * figure (SVG inline), the protocol notes and the dataset provenance; no scripts, no network, so it
 * opens from file:// anywhere.
 */
import type { Block, Inline, Section } from "./content.js";
import { escapeHtml } from "./format.js";
import { statedText, type Manifest } from "./manifest.js";
import type { FigureSpec } from "./figures/common.js";
import { getKeys, getValue, hasPath, type ResultSet } from "@persode/results";

/** A rendered figure: its spec record plus the SVG markup to inline. */
export interface RenderedFigure {
  figure: FigureSpec;
  svg: string;
}

function inlineHtml(parts: readonly Inline[], m: Manifest): string {
  return parts
    .map((p) => {
      if (typeof p === "string") return escapeHtml(p);
      if ("ref" in p) return `<span class="v" data-ref="${escapeHtml(p.ref)}">${escapeHtml(statedText(m, p.ref))}</span>`;
      if ("code" in p) return `<code>${escapeHtml(p.code)}</code>`;
      return `<strong>${escapeHtml(p.strong)}</strong>`;
    })
    .join("");
}

function figureHtml(f: RenderedFigure): string {
  return [
    `<figure class="figure" id="fig-${escapeHtml(f.figure.id)}" data-figure="${escapeHtml(f.figure.id)}">`,
    `<div class="plot" role="img" aria-label="${escapeHtml(f.figure.caption)}">${stripXmlProlog(f.svg)}</div>`,
    `<figcaption>${escapeHtml(f.figure.caption)} <span class="files">(${["png", "svg", "vl.json"].map((x) => `<a href="figures/${escapeHtml(f.figure.id)}.${x}">${x}</a>`).join(" · ")})</span></figcaption>`,
    `</figure>`,
  ].join("\n");
}

function stripXmlProlog(svg: string): string {
  return svg.replace(/^<\?xml[^>]*>\s*/, "");
}

function blockHtml(b: Block, m: Manifest, figures: Map<string, RenderedFigure>, used: Set<string>): string {
  switch (b.kind) {
    case "paragraph":
      return `<p>${inlineHtml(b.parts, m)}</p>`;
    case "cost":
      return `<p class="cost" data-cost="${escapeHtml(b.cost)}">${inlineHtml(b.parts, m)}</p>`;
    case "list":
      return `<ul>${b.items.map((i) => `<li>${inlineHtml(i, m)}</li>`).join("")}</ul>`;
    case "figure": {
      const f = figures.get(b.figure);
      if (!f) return "";
      used.add(b.figure);
      return figureHtml(f);
    }
    case "table": {
      const head = `<tr>${b.header.map((h, i) => `<th${b.numeric[i] ? ' class="num"' : ""}>${escapeHtml(h)}</th>`).join("")}</tr>`;
      const rows = b.rows.map(
        (r) =>
          `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${inlineHtml(c, m)}</th>` : `<td${b.numeric[i] ? ' class="num"' : ""}>${inlineHtml(c, m)}</td>`)).join("")}</tr>`,
      );
      return `<div class="table-wrap"><table>\n<caption>${escapeHtml(b.caption)}</caption>\n<thead>${head}</thead>\n<tbody>\n${rows.join("\n")}\n</tbody>\n</table></div>`;
    }
  }
}

function notesHtml(notes: Section["notes"]): string {
  if (!notes.length) return "";
  const items = notes.map((n) => `<dt>${escapeHtml(n.label)}</dt><dd>${escapeHtml(n.text).replace(/\n/g, "<br>")}</dd>`).join("\n");
  return `<div class="notes"><h3>Protocol and provenance notes</h3><dl>\n${items}\n</dl></div>`;
}

function provenanceHtml(set: ResultSet, m: Manifest): string {
  const rows: string[] = [];
  for (const file of m.sources) {
    const doc = [...Object.values(set.docs), ...Object.values(set.extended)].find((d) => d!.file === file);
    if (!doc) continue;
    // The strategy records are the tables' rows and slugs, not provenance: the line lists the rest of meta. The
    // datasets are named by id, file and sha256 prefix (their sources, long URLs, are in each section's notes).
    const metaField = (k: string): string =>
      k === "datasets"
        ? `datasets: ${(doc.data.meta.datasets ?? []).map((d) => `${d.id} ${d.file} (sha256 ${d.sha256.slice(0, 12)}…)`).join(", ")}`
        : `${k}: ${JSON.stringify(getValue(doc, ["meta", k]))}`;
    const meta = hasPath(doc, ["meta"])
      ? getKeys(doc, ["meta"])
          .filter((k) => k !== "strategies")
          .map(metaField)
          .join("; ")
      : "no meta block";
    rows.push(`<tr><th scope="row"><a href="${escapeHtml(file)}">${escapeHtml(file)}</a></th><td>${escapeHtml(meta)}</td></tr>`);
  }
  return [
    `<section id="provenance"><h2>Provenance of these numbers</h2>`,
    `<p>Every number in the sections above is a value of <a href="manifest.json"><code>manifest.json</code></a>, which records for each one its results file, its JSON path, the stated precision and the tolerance a recomputation may move it by (0 for exactly reproducible values). The test suite recomputes the manifest from the results files and fails on any drift.</p>`,
    `<div class="table-wrap"><table><caption>Results files</caption><thead><tr><th>file</th><th>meta</th></tr></thead><tbody>`,
    rows.join("\n"),
    `</tbody></table></div></section>`,
  ].join("\n");
}

const STYLE = `
:root { color-scheme: light; --ink: #1f1f1f; --soft: #555; --rule: #ddd; --cost: #b34700; --gain: #00795a; }
* { box-sizing: border-box; }
body { margin: 0; font-family: "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; color: var(--ink); background: #fafafa; line-height: 1.5; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 64px; background: #fff; }
h1 { font-size: 1.7rem; margin: 0.2em 0 0.3em; }
h2 { font-size: 1.3rem; margin: 2.2em 0 0.6em; padding-bottom: 0.2em; border-bottom: 1px solid var(--rule); }
h3 { font-size: 1rem; margin: 1.4em 0 0.4em; }
p { max-width: 78ch; }
nav ol { columns: 2; padding-left: 1.2em; }
a { color: #0062a0; }
.lead { color: var(--soft); }
.figure { margin: 1.2em 0; }
.plot { overflow-x: auto; }
.plot svg { display: block; max-width: 100%; height: auto; }
figcaption { font-size: 0.88rem; color: var(--soft); margin-top: 0.3em; }
figcaption .files { white-space: nowrap; }
.table-wrap { overflow-x: auto; margin: 1em 0; }
table { border-collapse: collapse; font-size: 0.9rem; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
th, td { padding: 0.3em 0.7em; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
thead th { border-bottom: 2px solid #999; vertical-align: bottom; }
thead th.num { white-space: normal; }
th[scope="row"] { white-space: nowrap; }
.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
p.cost { border-left: 4px solid var(--cost); padding: 0.3em 0.8em; background: #fff6ef; }
p.cost strong { color: var(--cost); }
.notes dt { font-weight: bold; margin-top: 0.5em; }
.notes dd { margin: 0.1em 0 0 1.2em; color: var(--soft); max-width: 90ch; }
footer { margin-top: 3em; font-size: 0.85rem; color: var(--soft); }
`;

/** The full report page. */
export function renderReportHtml(sections: readonly Section[], m: Manifest, figures: readonly RenderedFigure[], set: ResultSet): string {
  const byId = new Map(figures.map((f) => [f.figure.id, f]));
  const body: string[] = [];
  for (const s of sections) {
    const used = new Set<string>();
    body.push(`<section id="${s.experiment}">`, `<h2>${escapeHtml(s.title)}</h2>`);
    for (const b of s.blocks) {
      const html = blockHtml(b, m, byId, used);
      if (html) body.push(html);
    }
    for (const f of figures) if (f.figure.experiment === s.experiment && !used.has(f.figure.id)) body.push(figureHtml(f));
    const notes = notesHtml(s.notes);
    if (notes) body.push(notes);
    body.push(`</section>`);
  }
  const toc =
    sections.map((s) => `<li><a href="#${s.experiment}">${escapeHtml(s.title)}</a></li>`).join("") +
    `<li><a href="#provenance">Provenance of these numbers</a></li>`;
  return [
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>Persode-TS — evaluation report</title>",
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    "<main>",
    "<header>",
    "<h1>Persode-TS — evaluation report</h1>",
    '<p class="lead">Reproduction of the evaluation of Persode (Jin et al., ICES 2025): forgetting and consolidation, Eq. 1 scoring, salience-aware retrieval, personalization, and two external benchmarks (LoCoMo, EpiRec). What fusion gains is stated next to what it costs. Generated by <code>pnpm report</code> from the results files in this directory; it needs no network.</p>',
    `<nav><ol>${toc}</ol></nav>`,
    "</header>",
    ...body,
    provenanceHtml(set, m),
    "<footer>Figures: Vega-Lite specs rendered headlessly with vega and resvg; strategy colours from the Okabe–Ito colour-blind-safe " +
      "palette, one colour per strategy throughout and used for nothing else; other series from Paul Tol's muted palette.</footer>",
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
