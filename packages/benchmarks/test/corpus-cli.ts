// Shared by the corpus*.test.ts files: run `pnpm bench corpus` in-process through the exported
// CLI entry, capturing what it prints, and list what it left in a folder.
import { existsSync, readdirSync } from "node:fs";
import { vi } from "vitest";
import { runCli } from "../src/index.js";

/** Exit code and everything printed by one in-process CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the bench CLI with `argv` (without node and script), capturing stdout and stderr. */
export async function runBench(argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const out = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    stdout += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  const err = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    stderr += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  });
  try {
    const code = await runCli(argv);
    return { code, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** Every entry (files, folders, hidden temp files) below `dir`, as sorted relative paths; [] if it does not exist. */
export function listTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

/** One RFC 4180 field: quoted (inner quotes doubled) when it holds a comma, quote, CR, LF or edge spaces. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** An RFC 4180 table: header plus rows, CRLF line ends, trailing CRLF. */
export function csvTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}
