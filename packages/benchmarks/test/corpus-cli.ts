// Shared by the corpus*.test.ts files: run `pnpm bench corpus` in-process through the exported
// CLI entry, capturing what it prints, and list what it left in a folder.
import { existsSync, readdirSync } from "node:fs";

/** Run the bench CLI in-process with `argv`, capturing stdout and stderr (the shared helper). */
export { runCliInProcess as runBench, type CliRun } from "./bench-helpers.js";

/** Every entry (files, folders, hidden temp files) below `dir`, as sorted relative paths; [] if it does not exist. */
export function listTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).map(String).sort();
}

/** One RFC 4180 field: quoted (inner quotes doubled) when it holds a comma, quote, CR, LF or edge spaces. */
function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** An RFC 4180 table: header plus rows, CRLF line ends, trailing CRLF. */
export function csvTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}
