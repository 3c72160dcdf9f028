/**
 * Rendered figures kept by content: a figure's SVG and PNG are a pure function of its Vega-Lite spec, its id
 * (which scopes the SVG's ids), the renderer versions and the font files, so a run whose spec did not change
 * reuses the bytes rendered before instead of compiling, rendering and rasterizing again. The key is the
 * sha256 of all of these; entries are written atomically, so a stopped run leaves no half entry.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "@persode/util";

/** Renderer versions in the key, as this package pins them: an upgrade renders every figure again. */
function rendererVersions(): Record<string, string | undefined> {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { dependencies?: Record<string, string> };
  const deps = pkg.dependencies ?? {};
  return { vega: deps.vega, "vega-lite": deps["vega-lite"], resvg: deps["@resvg/resvg-js"] };
}
let renderer: Record<string, string | undefined> | undefined;

/** One figure's cache key: sha256 over the spec, the figure id, the renderer versions and each font file's path, size and mtime. */
export function figureKey(spec: unknown, id: string, fontFiles: readonly string[]): string {
  const fonts = fontFiles.map((f) => {
    const st = statSync(f);
    return [f, st.size, st.mtimeMs];
  });
  renderer ??= rendererVersions();
  return createHash("sha256").update(JSON.stringify({ spec, id, renderer, fonts })).digest("hex");
}

/** A figure cache in a folder: `<key>.svg` and `<key>.png`. */
export class FigureCache {
  constructor(readonly dir: string) {}

  /** The SVG and PNG rendered for `key`, if both are there. */
  get(key: string): { svg: string; png: Buffer } | undefined {
    const svg = join(this.dir, `${key}.svg`);
    const png = join(this.dir, `${key}.png`);
    if (!existsSync(svg) || !existsSync(png)) return undefined;
    return { svg: readFileSync(svg, "utf8"), png: readFileSync(png) };
  }

  /** Keep a rendering (PNG first: get() needs both, and the SVG is written last). */
  async put(key: string, svg: string, png: Buffer): Promise<void> {
    await writeFileAtomic(join(this.dir, `${key}.png`), png);
    await writeFileAtomic(join(this.dir, `${key}.svg`), svg);
  }
}
