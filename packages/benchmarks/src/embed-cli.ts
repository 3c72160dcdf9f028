#!/usr/bin/env node
/**
 * `pnpm embed --model NAME --role query|document --input FILE --output FILE` (issue 21): one text per line
 * in, one JSON array of floats per line out, through the benchmarks' own pipeline — the declared model
 * provisioned and verified, its role prefix, truncation, pooling and normalisation, the embedding cache.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import type { EmbedRole } from "@persode/core";
import { DECLARED_MODELS, declaredModel } from "@persode/datasets";
import { buildEmbedder } from "./embedder-setup.js";
import { embedderSettings } from "./options.js";
import { writeAtomic } from "./result-records.js";

const USAGE = `Usage: pnpm embed --model NAME --role query|document --input FILE --output FILE

  --model NAME    a declared model: ${DECLARED_MODELS.map((m) => [m.name, ...m.aliases].join(" | ")).join(", ")}
  --role ROLE     query (questions, probes) or document (memories): picks the model's prefix
  --input FILE    UTF-8 text, one text per line (a final newline ends the last text; CRLF accepted)
  --output FILE   written whole when every text is embedded: one JSON array of floats per input line`;

/** The input's texts: one per line; a trailing newline does not make an extra empty text. */
export function inputLines(text: string): string[] {
  const body = text.endsWith("\n") ? text.slice(0, -1) : text;
  return text === "" ? [] : body.split("\n").map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
}

/** Run the command; returns the exit code (2 for a usage error). */
export async function main(argv: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        model: { type: "string" },
        role: { type: "string" },
        input: { type: "string" },
        output: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const missing = (["model", "role", "input", "output"] as const).filter((k) => typeof values[k] !== "string");
  const usage = (msg: string) => (process.stderr.write(`error: ${msg}\n\n${USAGE}\n`), 2);
  if (missing.length > 0) return usage(`missing ${missing.map((k) => `--${k}`).join(", ")}`);
  const name = values.model as string;
  const role = values.role as string;
  if (!declaredModel(name)) return usage(`unknown model "${name}"; declared: ${DECLARED_MODELS.map((m) => m.name).join(", ")}`);
  if (role !== "query" && role !== "document") return usage(`--role must be query or document, got "${role}"`);
  const input = resolve(values.input as string);
  const output = resolve(values.output as string);
  if (input === output) return usage(`--output is the input file itself (${input}); choose another file`);
  try {
    let text: string;
    try {
      text = await readFile(input, "utf8");
    } catch (e) {
      throw new Error(`cannot read --input ${input}: ${(e as Error).message}`);
    }
    const texts = inputLines(text);
    const { embedder } = await buildEmbedder(name, embedderSettings(name, {}, process.env));
    try {
      const vecs = await embedder.embedBatch(texts, role as EmbedRole);
      await writeAtomic(output, vecs.map((v) => JSON.stringify(Array.from(v))).join("\n") + (vecs.length ? "\n" : ""));
      process.stderr.write(
        `${texts.length} texts embedded with ${embedder.id} as ${role === "query" ? "queries" : "documents"}: ${output}\n`,
      );
    } finally {
      await embedder.dispose?.();
    }
    return 0;
  } catch (e) {
    process.stderr.write(`error: ${(e as Error).message}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
