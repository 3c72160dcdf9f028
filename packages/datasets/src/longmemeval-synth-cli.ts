import { parseArgs } from "node:util";
import { writeFileAtomic } from "@persode/util";
import { generateLongMemEval, syntheticLongMemEvalBytes, type SyntheticLongMemEvalOptions } from "./longmemeval-synthetic.js";

/** `pnpm --filter @persode/datasets data longmemeval-synth`: write a seeded synthetic LongMemEval-format file; returns the exit code. */
export async function synthCommand(argv: string[], usage: string): Promise<number> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({
      args: argv,
      options: {
        out: { type: "string" },
        seed: { type: "string" },
        questions: { type: "string" },
        sessions: { type: "string" },
        turns: { type: "string" },
        words: { type: "string" },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${usage}\n`);
    return 2;
  }
  if (!values.out) {
    process.stderr.write(`longmemeval-synth needs --out FILE\n${usage}\n`);
    return 2;
  }
  const opts: SyntheticLongMemEvalOptions = {};
  for (const key of ["seed", "questions", "sessions", "turns", "words"] as const) {
    const v = values[key];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || (key !== "seed" && Number(v) < 1)) {
      process.stderr.write(`--${key} must be a ${key === "seed" ? "non-negative" : "positive"} integer, got "${v}"\n`);
      return 2;
    }
    opts[key] = Number(v);
  }
  const questions = generateLongMemEval(opts);
  const bytes = syntheticLongMemEvalBytes(questions);
  await writeFileAtomic(values.out, bytes);
  const turns = questions.reduce((n, q) => n + q.haystack_sessions.reduce((m, s) => m + s.length, 0), 0);
  process.stdout.write(`${values.out}: ${questions.length} questions, ${turns} turns, ${bytes.length} bytes\n`);
  return 0;
}
