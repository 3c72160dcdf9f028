import { describe, expect, it } from "vitest";
import { EPIREC, LOCOMO, resolveDataset, sha256Hex } from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

describe("pinned sources (docs/spec.md §8)", () => {
  it("pins commit-addressed URLs and lower-case hex sha256", () => {
    for (const ds of [LOCOMO, EPIREC]) {
      expect(ds.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(ds.url).toMatch(/^https:\/\/raw\.githubusercontent\.com\/[^/]+\/[^/]+\/[0-9a-f]{40}\/data\//);
      expect(ds.url.endsWith(`/${ds.fileName}`)).toBe(true);
      expect(ds.envPathVar).toMatch(/^PERSODE_[A-Z]+_PATH$/);
    }
    expect(LOCOMO.license).toBe("CC BY-NC 4.0");
    expect(EPIREC.license).toBe("CC BY 4.0");
    expect(Object.isFrozen(LOCOMO) && Object.isFrozen(EPIREC)).toBe(true);
  });

  it("the mirror (or cache) holds exactly the pinned bytes", async () => {
    for (const ds of [LOCOMO, EPIREC]) {
      const f = await resolveDataset(ds, pinnedDataOptions());
      expect(sha256Hex(f.bytes)).toBe(ds.sha256);
      expect(["mirror", "cache"]).toContain(f.source);
    }
  });
});
