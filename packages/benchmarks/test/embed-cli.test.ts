// `pnpm embed` (issue 21): the input format and the usage errors, which need no model. The vectors
// themselves are checked against langchain4j's in embedding-crosscheck.test.ts.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { inputLines, main } from "../src/embed-cli.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  vi.restoreAllMocks();
});

async function run(argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((s) => ((stderr += String(s)), true));
  vi.spyOn(process.stdout, "write").mockImplementation(() => true);
  const code = await main(argv);
  return { code, stderr };
}

describe("pnpm embed", () => {
  it("reads one text per line: a final newline ends the last text, CRLF is accepted, blank lines are texts", () => {
    expect(inputLines("a\nb\n")).toEqual(["a", "b"]);
    expect(inputLines("a\r\nb")).toEqual(["a", "b"]);
    expect(inputLines("a\n\nb\n")).toEqual(["a", "", "b"]);
    expect(inputLines("")).toEqual([]);
    expect(inputLines("\n")).toEqual([""]);
  });

  it("refuses missing options, an undeclared model, a bad role and an output that is the input, writing nothing", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-embed-"));
    const input = join(dir, "in.txt");
    const output = join(dir, "out.jsonl");
    writeFileSync(input, "hello\n");
    const cases: [string[], RegExp][] = [
      [["--model", "e5-small-v2"], /missing --role, --input, --output/],
      [
        ["--model", "acme/other", "--role", "query", "--input", input, "--output", output],
        /unknown model "acme\/other"; declared: all-MiniLM-L6-v2, bge-small-en-v1.5, e5-small-v2/,
      ],
      [
        ["--model", "e5-small-v2", "--role", "passage", "--input", input, "--output", output],
        /--role must be query or document, got "passage"/,
      ],
      [["--model", "e5-small-v2", "--role", "query", "--input", input, "--output", input], /--output is the input file itself/],
      [["--modle", "x"], /Unknown option/],
    ];
    for (const [argv, msg] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(msg);
    }
    expect(existsSync(output)).toBe(false);
  });

  it("a missing input file is an error naming it", async () => {
    dir = mkdtempSync(join(tmpdir(), "persode-embed-"));
    const r = await run([
      "--model",
      "all-MiniLM-L6-v2",
      "--role",
      "document",
      "--input",
      join(dir, "nope.txt"),
      "--output",
      join(dir, "out.jsonl"),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot read --input ${join(dir, "nope.txt")}`);
    expect(existsSync(join(dir, "out.jsonl"))).toBe(false);
  });
});
