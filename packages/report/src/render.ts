/**
 * Headless rendering: Vega-Lite → Vega → SVG (vega's string renderer, no canvas; text widths are
 * estimated, which is deterministic) → PNG (resvg with one explicitly loaded font, no system fonts),
 * so the same spec gives the same bytes on every machine.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type * as ResvgJs from "@resvg/resvg-js";
import type * as Vega from "vega";
import type { TopLevelSpec } from "vega-lite";
import { FONT_FAMILY } from "./style.js";

/** The font files the PNG renderer loads (Debian package fonts-dejavu-core). */
export const DEFAULT_FONT_FILES = [
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
  "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
] as const;

/** Check the font files exist; the error says how to install them. */
export function requireFonts(files: readonly string[] = DEFAULT_FONT_FILES): string[] {
  const missing = files.filter((f) => !existsSync(f));
  if (missing.length) {
    throw new Error(
      `PNG rendering needs the DejaVu Sans font files ${missing.join(", ")}, which are missing. ` +
        "Install them with `apt-get install -y fonts-dejavu-core` (Debian/Ubuntu) and rerun.",
    );
  }
  return [...files];
}

/** Compile a Vega-Lite spec and render it to an SVG string; any Vega-Lite warning is an error (specs must be clean). */
export async function renderSvg(spec: Record<string, unknown>, name = "figure"): Promise<string> {
  // loaded on first use: a run whose figures all come from the figure cache never loads the renderer
  const [vega, { compile }] = await Promise.all([import("vega"), import("vega-lite")]);
  let compiled: Vega.Spec;
  const warnings: string[] = [];
  const collect = (...args: unknown[]) => {
    warnings.push(args.map(String).join(" "));
    return logger;
  };
  const logger = { level: (() => logger) as never, error: collect, warn: collect, info: () => logger, debug: () => logger };
  try {
    compiled = compile(spec as unknown as TopLevelSpec, { logger: logger as never }).spec;
  } catch (err) {
    throw new Error(`Vega-Lite could not compile ${name}: ${(err as Error).message}`);
  }
  if (warnings.length) throw new Error(`Vega-Lite warned while compiling ${name}: ${warnings.join("; ")}`);
  const view = new vega.View(vega.parse(compiled), { renderer: "none", logLevel: vega.Error });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/**
 * Give every id in an SVG a figure-specific, order-based name (`<prefix>-1`, `<prefix>-2`, …) and
 * rewrite its references, so inline SVGs in one page never share ids and vega's process-wide
 * counters never leak into the output.
 */
export function scopeSvgIds(svg: string, prefix: string): string {
  const ids: string[] = [];
  for (const m of svg.matchAll(/\sid="([^"]+)"/g)) if (!ids.includes(m[1]!)) ids.push(m[1]!);
  if (ids.length === 0) return svg;
  const map = new Map(ids.map((id, i) => [id, `${prefix}-${i + 1}`]));
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const pattern = new RegExp(`(\\sid="|url\\(#|href="#)(${ids.map(esc).join("|")})(?=[")])`, "g");
  return svg.replace(pattern, (_, lead: string, id: string) => lead + map.get(id)!);
}

/** resvg, loaded on first use: a run whose figures all come from the figure cache never loads its native binding (≈ 20 ms). */
let resvgJs: typeof ResvgJs | undefined;
const resvg = (): typeof ResvgJs => (resvgJs ??= createRequire(import.meta.url)("@resvg/resvg-js") as typeof ResvgJs);

function resvgOptions(fontFiles: readonly string[], scale: number) {
  return {
    fitTo: { mode: "zoom" as const, value: scale },
    font: { fontFiles: [...fontFiles], loadSystemFonts: false, defaultFontFamily: FONT_FAMILY, sansSerifFamily: FONT_FAMILY },
    background: "#ffffff",
  };
}

/** Rasterize an SVG to PNG at `scale` × its size, using only the given font files. */
export function svgToPng(svg: string, fontFiles: readonly string[], scale = 2): Buffer {
  return new (resvg().Resvg)(svg, resvgOptions(fontFiles, scale)).render().asPng();
}

/** Same as svgToPng, on resvg's worker threads (lets several figures rasterize in parallel). */
export async function svgToPngAsync(svg: string, fontFiles: readonly string[], scale = 2): Promise<Buffer> {
  return (await resvg().renderAsync(svg, resvgOptions(fontFiles, scale))).asPng();
}
