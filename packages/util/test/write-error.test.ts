// explainWriteError: each refused write becomes a message naming the path and the fix. EACCES,
// EROFS and ENOSPC cannot be provoked reliably (tests may run as root), so they are fed in as the
// errors node:fs raises; ENOTDIR/EISDIR are provoked for real in core's persistence.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { WriteError, explainWriteError } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "persode-write-error-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fsError = (code: string) => Object.assign(new Error(`${code}: simulated, open 'x'`), { code });

describe("explainWriteError", () => {
  const cases: Array<[string, RegExp]> = [
    ["EACCES", /permission denied; choose a location you can write to, or fix the folder's permissions \(EACCES\)$/],
    ["EPERM", /permission denied/],
    ["EROFS", /the file system is read-only; choose a writable location/],
    ["ENOSPC", /the disk is full; free some space or choose another location/],
    ["EISDIR", /it is a folder, not a file; give a file path/],
  ];
  for (const [code, says] of cases) {
    it(code, () => {
      const e = explainWriteError("out/store.json", fsError(code));
      expect(e).toBeInstanceOf(WriteError);
      expect(e.message).toMatch(new RegExp(`^cannot write ${resolve("out/store.json").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: `));
      expect(e.message).toMatch(says);
      expect((e as WriteError).code).toBe(code);
      expect(e.cause).toBeInstanceOf(Error);
    });
  }

  it("ENOTDIR names the file standing where a folder should be", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "x");
    expect(explainWriteError(join(file, "deeper", "s.json"), fsError("ENOTDIR")).message).toContain(`${file} is a file, not a folder`);
  });

  it("other errors pass through unchanged", () => {
    const other = fsError("EIO");
    expect(explainWriteError("x", other)).toBe(other);
    const plain = new Error("boom");
    expect(explainWriteError("x", plain)).toBe(plain);
  });
});
