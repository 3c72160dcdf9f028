import { describe, expect, it } from "vitest";
import { clip, requireFinite } from "../src/numeric.js";

describe("clip and requireFinite", () => {
  it("clips to [0, 1] by default and to any range", () => {
    expect(clip(-0.2)).toBe(0);
    expect(clip(1.7)).toBe(1);
    expect(clip(0.37)).toBe(0.37);
    expect(clip(5, -1, 3)).toBe(3);
  });

  it("names the quantity and the bad value", () => {
    expect(requireFinite(0.5, "E")).toBe(0.5);
    expect(() => requireFinite(Number.NaN, "E")).toThrow("E must be a finite number, got NaN");
    expect(() => requireFinite(Number.POSITIVE_INFINITY, "E")).toThrow("E must be a finite number, got Infinity");
    expect(() => requireFinite("0.5", "E")).toThrow('E must be a finite number, got "0.5"');
    expect(() => requireFinite(undefined, "E")).toThrow("got undefined");
  });
});
