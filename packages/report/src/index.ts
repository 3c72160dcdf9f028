/**
 * @persode/report — Vega-Lite figures, the HTML report, the regression manifest and the README results section, rendered from result files.
 */
export { fixed, shortest, escapeHtml } from "./format.js";
export { OKABE_ITO, EXTRA_STRATEGY_COLOURS, strategyColours, embedderName, baseConfig, FONT_FAMILY } from "./style.js";
export { COST_IDS, COST_TOPICS, type Block, type CostId, type Inline, type Section, type SectionId } from "./content.js";
export { reportExperiment, type ReportExperiment } from "./experiments/experiment.js";
/** Published LongMemEval figures with their protocols and sources (shown beside Exp. 8; shared with the protocol ladder). */
export {
  MANIFEST_FORMAT,
  ManifestRecorder,
  serializeManifest,
  parseManifest,
  compareManifests,
  reresolveEntries,
  statedText,
  type Manifest,
  type ManifestEntry,
  type ManifestText,
} from "./manifest.js";
export { buildReportModel, buildManifest, type ReportModel } from "./model.js";
export {
  BEGIN_MARKER,
  END_MARKER,
  FRONT_BEGIN_MARKER,
  FRONT_END_MARKER,
  renderReadmeSection,
  spliceReadme,
  extractSection,
  checkReadme,
  type MarkdownOptions,
} from "./markdown.js";
export { costStatements, checkCostClaims, checkReadmeHonesty, checkHtmlHonesty, htmlText, type CostStatement } from "./honesty.js";
export { buildFigureSpecs } from "./figures/index.js";
export { exp1Figures } from "./figures/exp1.js";
export { exp2Figures } from "./figures/exp2.js";
export { exp3Figures } from "./figures/exp3.js";
export { exp4Figures } from "./figures/exp4.js";
export { exp5Figures } from "./figures/exp5.js";
export { exp5AuditFigures } from "./figures/exp5-audit.js";
export { exp5AuditSection, EXP5_AUDIT_METRICS } from "./sections/exp5-audit.js";
export { exp6Figures } from "./figures/exp6.js";
export type { FigureSpec } from "./figures/common.js";
export { DEFAULT_FONT_FILES, requireFonts, renderSvg, svgToPng, svgToPngAsync, scopeSvgIds } from "./render.js";
export { renderReportHtml, type RenderedFigure } from "./html.js";
export { renderAll, checkAll, markdownOptions, type RenderOptions, type RenderSummary, type CheckSummary } from "./render-all.js";
