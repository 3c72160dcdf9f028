// Figures rendered once and reused while their spec is unchanged (figure-cache.ts): the same bytes as a
// fresh render, a changed spec renders again, and the key also holds the renderer versions the package pins and the font files.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { figureKey } from "../src/figure-cache.js";
import { renderAll } from "../src/render-all.js";
import { DEFAULT_FONT_FILES } from "../src/render.js";
import { editJson, tempWorkspace } from "./helpers.js";

function figures(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(join(dir, "figures"))) out.set(name, readFileSync(join(dir, "figures", name)));
  return out;
}

describe("figure cache", () => {
  it("reuses renderings byte for byte, and renders a changed figure again", async () => {
    const cache = mkdtempSync(join(tmpdir(), "persode-figcache-"));
    const plain = tempWorkspace();
    await renderAll({ resultsDir: plain.results });
    const cached = tempWorkspace();
    await renderAll({ resultsDir: cached.results, figureCache: cache });
    const entries = readdirSync(cache).length;
    expect(entries).toBe(20); // 10 figures × (svg, png)
    expect(figures(cached.results)).toEqual(figures(plain.results));
    // second run: every figure from the cache, same bytes
    await renderAll({ resultsDir: cached.results, figureCache: cache });
    expect(readdirSync(cache)).toHaveLength(entries);
    expect(figures(cached.results)).toEqual(figures(plain.results));
    // a results value behind a figure changes: that figure gets a new entry, and matches a fresh render
    editJson(join(cached.results, "exp1_forgetting_curve.json"), (d) => {
      (d as { curves: { decay: number[] } }).curves.decay[1] = 0.5;
    });
    editJson(join(plain.results, "exp1_forgetting_curve.json"), (d) => {
      (d as { curves: { decay: number[] } }).curves.decay[1] = 0.5;
    });
    await renderAll({ resultsDir: cached.results, figureCache: cache });
    await renderAll({ resultsDir: plain.results });
    expect(readdirSync(cache).length).toBeGreaterThan(entries);
    expect(figures(cached.results)).toEqual(figures(plain.results));
  }, 120_000);

  it("keys on spec and id", () => {
    const fonts = [...DEFAULT_FONT_FILES];
    expect(figureKey({ a: 1 }, "x", fonts)).toBe(figureKey({ a: 1 }, "x", fonts));
    expect(figureKey({ a: 1 }, "x", fonts)).not.toBe(figureKey({ a: 2 }, "x", fonts));
    expect(figureKey({ a: 1 }, "x", fonts)).not.toBe(figureKey({ a: 1 }, "y", fonts));
  });
});
