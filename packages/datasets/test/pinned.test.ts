import { describe, expect, it } from "vitest";
import { EMOBANK, EPIREC, LOCOMO, LOCOMO_AUDIT, PINNED_DATASETS, resolveDataset, sha256Hex } from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

describe("pinned sources (docs/spec.md §8)", () => {
  it("pins commit-addressed URLs and lower-case hex sha256", () => {
    expect(PINNED_DATASETS).toEqual([LOCOMO, EPIREC, LOCOMO_AUDIT, EMOBANK]);
    for (const ds of PINNED_DATASETS) {
      expect(ds.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(ds.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/[^/]+\/[^/]+\/[0-9a-f]{40}\//);
      expect(ds.envPathVar).toMatch(/^PERSODE_[A-Z_]+_PATH$/);
      expect(Object.isFrozen(ds)).toBe(true);
    }
    // the mirror and cache name a file after the dataset; the audit's upstream name (errors.json) is too generic
    expect(LOCOMO.url.endsWith("/data/locomo10.json") && EPIREC.url.endsWith("/data/epirec_v1.json")).toBe(true);
    expect(LOCOMO_AUDIT.url.endsWith("/errors.json") && LOCOMO_AUDIT.fileName === "locomo_audit_errors.json").toBe(true);
    expect(new Set(PINNED_DATASETS.map((d) => d.fileName)).size).toBe(PINNED_DATASETS.length);
    expect(new Set(PINNED_DATASETS.map((d) => d.envPathVar)).size).toBe(PINNED_DATASETS.length);
    expect(LOCOMO.license).toBe("CC BY-NC 4.0");
    expect(EPIREC.license).toBe("CC BY 4.0");
    expect(LOCOMO_AUDIT.license).toBe("CC BY-NC 4.0");
  });

  it("the mirror (or cache) holds exactly the pinned bytes", async () => {
    for (const ds of PINNED_DATASETS) {
      const f = await resolveDataset(ds, pinnedDataOptions());
      expect(sha256Hex(f.bytes)).toBe(ds.sha256);
      expect(["mirror", "cache"]).toContain(f.source);
    }
  });
});
