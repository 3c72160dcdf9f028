import { describe, expect, it } from "vitest";
import { longTermPlateau } from "../src/experiments/exp3-retrieval.js";

const curve = (values: number[]) => values.map((long_term_recall, i) => ({ alpha: i / 10, long_term_recall }));

describe("Exp. 3 long-term plateau (the α range the report states)", () => {
  it("is the run of maximal points that contains the pre-registered α", () => {
    // two runs at the maximum 0.6: [0.1, 0.2] and [0.4, 0.6]; α = 0.5 lies in the second
    expect(longTermPlateau(curve([0.2, 0.6, 0.6, 0.4, 0.6, 0.6, 0.6, 0.2]), 0.5)).toEqual({
      from_alpha: 0.4,
      to_alpha: 0.6,
      long_term_recall: 0.6,
    });
  });

  it("falls back to the first maximal run when the pre-registered α is not at the maximum", () => {
    expect(longTermPlateau(curve([0.2, 0.6, 0.6, 0.4, 0.6, 0.2]), 0.3)).toEqual({ from_alpha: 0.1, to_alpha: 0.2, long_term_recall: 0.6 });
  });

  it("is a single point when the maximum is isolated, and refuses an empty sweep", () => {
    expect(longTermPlateau(curve([0.1, 0.3, 0.2]), 0.5)).toEqual({ from_alpha: 0.1, to_alpha: 0.1, long_term_recall: 0.3 });
    expect(() => longTermPlateau([], 0.5)).toThrow(/empty/);
  });
});
