import { describe, expect, it } from "vitest";
import { exactLogHalfInteger } from "../src/longmemeval/exact-log.js";

describe("exactLogHalfInteger", () => {
  it("is ln, correctly rounded, where V8's Math.log is off by an ulp", () => {
    // Values of CPython 3.11 math.log (glibc) for x = n + 0.5; Math.log differs on these (checked on this machine's V8).
    let differs = 0;
    for (let n = 0; n < 3000; n++) {
      const x = n + 0.5;
      const e = exactLogHalfInteger(x);
      expect(Math.abs(e - Math.log(x))).toBeLessThanOrEqual(Math.abs(Math.log(x)) * 2.3e-16);
      if (e !== Math.log(x)) differs++;
    }
    expect(differs).toBeGreaterThan(0);
    // CPython 3.11 `math.log(x)` (glibc 2.36, repr) where V8's Math.log gives the neighbouring double.
    const cpython: [number, number][] = [
      [23.5, 3.1570004211501135],
      [41.5, 3.7256934272366524],
      [46.5, 3.8394523125933104],
      [49.5, 3.901972669574645],
      [78.5, 4.363098624788363],
    ];
    for (const [x, v] of cpython) {
      expect(exactLogHalfInteger(x)).toBe(v);
      expect(Math.log(x)).not.toBe(v);
    }
    expect(exactLogHalfInteger(1)).toBe(0);
    expect(exactLogHalfInteger(2)).toBe(Math.LN2);
    expect(exactLogHalfInteger(0.5)).toBe(-Math.LN2);
    expect(() => exactLogHalfInteger(0.3)).toThrow(RangeError);
  });
});
