// Rerunning one experiment must not rewrite a committed results file only to name another command:
// a file that would differ only in generated_by is left as it is (bytes and inode); any other
// difference is written, with the new generated_by.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatResultJson, writeResultText } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "persode-provenance-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const doc = (target: string, value: number) => formatResultJson({ value, meta: { seed: 1, generated_by: `pnpm bench ${target}` } });

describe("writeResultText", () => {
  it("keeps a file that differs only in generated_by; writes one that differs in anything else", async () => {
    const path = join(dir, "exp1.json");
    await writeResultText(path, doc("all", 0.5));
    const inode = statSync(path).ino;
    await writeResultText(path, doc("exp1", 0.5));
    expect(readFileSync(path, "utf8")).toBe(doc("all", 0.5));
    expect(statSync(path).ino).toBe(inode);
    await writeResultText(path, doc("exp1", 0.25));
    expect(readFileSync(path, "utf8")).toBe(doc("exp1", 0.25));
  });

  it("a quote inside generated_by is provenance too; a file that is not a results file is replaced", async () => {
    const path = join(dir, "quoted.json");
    await writeResultText(path, doc('corpus --name "my diary"', 1));
    await writeResultText(path, doc("corpus --name other", 1));
    expect(readFileSync(path, "utf8")).toBe(doc('corpus --name "my diary"', 1));
    writeFileSync(path, "not json");
    await writeResultText(path, doc("all", 1));
    expect(readFileSync(path, "utf8")).toBe(doc("all", 1));
  });
});
