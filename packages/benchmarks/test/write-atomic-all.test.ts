// writeAtomicAll: several files written at once, each atomically; a refused write is reported by path once every
// write has ended, and the files that could be written are.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { phaseSeconds, resetPhases } from "../src/phases.js";
import { writeAtomicAll, writeResultString } from "../src/result-records.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("writeAtomicAll", () => {
  it("writes every file, running `meanwhile` while the writes are under way", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-write-all-"));
    let ran = false;
    await writeAtomicAll(
      [
        [join(dir, "a", "1.jsonl"), "one\n"],
        [join(dir, "a", "2.jsonl"), new TextEncoder().encode("two\n")],
      ],
      () => void (ran = true),
    );
    expect(ran).toBe(true);
    expect(readFileSync(join(dir, "a", "1.jsonl"), "utf8")).toBe("one\n");
    expect(readFileSync(join(dir, "a", "2.jsonl"), "utf8")).toBe("two\n");
    expect(readdirSync(join(dir, "a")).sort()).toEqual(["1.jsonl", "2.jsonl"]); // no temporary file left
  });

  it("names the path a write was refused at, writes the others, and leaves no partial file", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-write-all-"));
    mkdirSync(join(dir, "taken"));
    writeFileSync(join(dir, "blocker"), "a file where a folder should be");
    const write = writeAtomicAll([
      [join(dir, "ok.jsonl"), "ok\n"],
      [join(dir, "blocker", "x.jsonl"), "x\n"],
      [join(dir, "taken"), "a folder is in the way\n"],
    ]);
    await expect(write).rejects.toThrow(/blocker/);
    expect(readFileSync(join(dir, "ok.jsonl"), "utf8")).toBe("ok\n");
    expect(readdirSync(dir).sort()).toEqual(["blocker", "ok.jsonl", "taken"]);
  });

  it("reports a failure of `meanwhile` after the writes have ended", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-write-all-"));
    const write = writeAtomicAll([[join(dir, "f.json"), "{}\n"]], () => {
      throw new Error("hashing failed");
    });
    await expect(write).rejects.toThrow("hashing failed");
    expect(readFileSync(join(dir, "f.json"), "utf8")).toBe("{}\n");
  });
});

describe("the write phase", () => {
  it("holds the time of writeAtomicAll (with its `meanwhile`) and of writing a results file", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-write-all-"));
    resetPhases();
    await writeAtomicAll([[join(dir, "f.jsonl"), "x\n"]], () => {
      const t = performance.now();
      while (performance.now() - t < 5); // work done meanwhile is the phase's
    });
    const afterAll = phaseSeconds();
    expect(afterAll.write).toBeGreaterThanOrEqual(0.005);
    await writeResultString(join(dir, "r.json"), "{}\n");
    expect(phaseSeconds().write).toBeGreaterThan(afterAll.write);
    expect(readFileSync(join(dir, "r.json"), "utf8")).toBe("{}\n");
  });
});
