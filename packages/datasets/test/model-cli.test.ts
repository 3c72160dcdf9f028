// `pnpm model fetch|check [NAME… | --all]` (issue 21): names come from the declarations; an unknown name or a
// bad combination is a usage error (exit 2) listing the declared models; a model that is not available
// offline fails (exit 1) naming it; a PERSODE_OFFLINE that is not a boolean is refused by fetch and check
// alike, as `pnpm bench` refuses it. Runs the built CLI in a scratch data folder, offline.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../dist/model-cli.js", import.meta.url));
let data: string;
beforeAll(() => {
  expect(existsSync(CLI), `build first: pnpm --filter @persode/datasets build (missing ${CLI})`).toBe(true);
  data = mkdtempSync(join(tmpdir(), "persode-model-cli-"));
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH ?? "", PERSODE_DATA_DIR: data, PERSODE_OFFLINE: "1" },
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("pnpm model", () => {
  it("lists the declared models in its usage", () => {
    const r = run("--help");
    expect(r.code).toBe(0);
    for (const n of ["all-MiniLM-L6-v2", "minilm", "bge-small-en-v1.5", "e5-small-v2", "--all"]) expect(r.stdout).toContain(n);
  });

  it("refuses an unknown model, --all with names, and an unknown command (exit 2)", () => {
    for (const [args, msg] of [
      [["check", "bge-large"], /unknown model "bge-large"; declared: all-MiniLM-L6-v2 \| minilm, bge-small-en-v1.5, e5-small-v2/],
      [["fetch", "--all", "e5-small-v2"], /--all takes no model names/],
      [["pull"], /unknown command "pull"/],
    ] as const) {
      const r = run(...args);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
  });

  it("check of a model that is not provisioned fails offline, naming it and the fix", () => {
    const r = run("check", "e5-small-v2");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("embedding model intfloat/e5-small-v2");
    expect(r.stderr).toContain("onnx/model.onnx");
    expect(r.stderr).toContain("pnpm model fetch");
  });
});

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
