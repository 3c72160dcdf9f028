// `pnpm model` reads the environment as `pnpm bench` does: a PERSODE_OFFLINE that is not a boolean is
// refused by fetch and by check alike (check used to accept it, being offline anyway), exit 2.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../dist/model-cli.js", import.meta.url));

describe("pnpm model and a bad PERSODE_OFFLINE", () => {
  for (const cmd of ["check", "fetch"]) {
    it(`${cmd}: PERSODE_OFFLINE=maybe is refused before anything is looked up`, () => {
      const r = spawnSync(process.execPath, [CLI, cmd], { env: { ...process.env, PERSODE_OFFLINE: "maybe" }, encoding: "utf8" });
      expect(r.stderr).toBe('error: PERSODE_OFFLINE="maybe" is not a boolean; use 1 or 0\n');
      expect(r.stdout).toBe("");
      expect(r.status).toBe(2);
    });
  }
});
