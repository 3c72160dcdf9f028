// The loaders' plain checks (src/issues.ts checkShaped): each value is tested with plain predicates first and goes to
// its zod schema only when it fails them. The predicates must accept nothing the schema refuses, or a malformed file
// would lose its message: every mutation below breaks one field's schema rule, and each must still be reported by
// zod at that field's path. And a well-formed pinned file must load without zod at all (src/zod.ts).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  DatasetFormatError,
  EPIREC,
  parseEpiRec,
  parseLocomo,
  parseLocomoAudit,
  resolveDataset,
  type LocomoDataset,
} from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

/** A JSON path (keys and indices) and how to break the value there: a replacement, or "delete" to remove the key. */
type Mutation = [path: (string | number)[], bad: unknown];

/** `doc` with the value at `path` replaced by `bad` (or its key removed), on a deep copy (holes kept). */
function mutated(doc: unknown, [path, bad]: Mutation): unknown {
  const copy = structuredClone(doc);
  let at = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (bad === "delete") delete at[last];
  else at[last] = bad;
  return copy;
}

/** The path as DataIssue.where writes it: `[0].qa[1].category`, `personas[3].episodes`. */
function where(path: (string | number)[]): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");
}

/** The issues of parsing `doc`; fails the test when it parses. */
function issuesOf(parse: () => unknown): string[] {
  try {
    parse();
  } catch (e) {
    if (e instanceof DatasetFormatError) return e.issues.map((i) => i.where);
    throw e;
  }
  throw new Error("expected a DatasetFormatError");
}

/** Every mutation is refused with an issue at (or inside) its path. */
function expectEachReported(doc: unknown, mutations: Mutation[], parse: (json: unknown) => unknown): void {
  for (const m of mutations) {
    const at = where(m[0]);
    const issues = issuesOf(() => parse(mutated(doc, m)));
    expect(
      issues.some((w) => w === at || w.startsWith(`${at}.`) || w.startsWith(`${at}[`)),
      `${at} = ${JSON.stringify(m[1])}: issues at ${issues.join(", ")}`,
    ).toBe(true);
  }
}

// a sparse array: a hole where a string must be
// eslint-disable-next-line no-sparse-arrays
const HOLE = [, "D1:1"];
// and a hole before a question
// eslint-disable-next-line no-sparse-arrays
const QA_HOLE = [, { question: "Q?", evidence: [], category: 1 }];

const LOCOMO_DOC = [
  {
    sample_id: "conv-x",
    conversation: {
      speaker_a: "Ana",
      speaker_b: "Ben",
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_1: [
        { speaker: "Ana", dia_id: "D1:1", text: "Hi", blip_caption: "a cat" },
        { speaker: "Ben", dia_id: "D1:2", text: "Hello" },
      ],
    },
    qa: [
      { question: "Who said hi?", answer: "Ana", evidence: ["D1:1"], category: 4, adversarial_answer: "Ben" },
      { question: "When?", answer: 2023, evidence: [], category: 2 },
    ],
  },
];

describe("LoCoMo's plain checks refuse what its schemas refuse", () => {
  it("accepts the document as the schemas do", () => {
    const d = parseLocomo(LOCOMO_DOC);
    expect(d.conversations[0]!.sessions[0]!.turns[0]).toEqual({ speaker: "Ana", text: "Hi", diaId: "D1:1", caption: "a cat" });
    expect(d.conversations[0]!.qa[1]).toEqual({ question: "When?", answer: 2023, category: 2, evidence: [] });
  });

  it("reports every broken turn, question and sample field", () => {
    const turn = (field: string, bad: unknown): Mutation => [[0, "conversation", "session_1", 0, field], bad];
    const qa = (field: string, bad: unknown): Mutation => [[0, "qa", 0, field], bad];
    expectEachReported(
      LOCOMO_DOC,
      [
        turn("speaker", ""),
        turn("speaker", 3),
        turn("speaker", "delete"),
        turn("text", null),
        turn("text", "delete"),
        turn("dia_id", "1:1"),
        turn("dia_id", "D1:1 "),
        turn("dia_id", 11),
        turn("blip_caption", null),
        turn("blip_caption", 7),
        [[0, "conversation", "session_1", 1], null],
        [
          [0, "conversation", "session_1", 1],
          ["Ben", "D1:2", "Hello"],
        ],
        qa("question", ""),
        qa("question", "delete"),
        qa("answer", null),
        qa("answer", true),
        qa("answer", Number.POSITIVE_INFINITY),
        qa("answer", Number.NaN),
        qa("category", 0),
        qa("category", 6),
        qa("category", 2.5),
        qa("category", "4"),
        qa("category", "delete"),
        qa("evidence", "D1:1"),
        qa("evidence", [1]),
        qa("evidence", HOLE),
        qa("evidence", "delete"),
        qa("adversarial_answer", null),
        [[0, "qa", 1], "Q?"],
        [[0, "sample_id"], ""],
        [[0, "sample_id"], 7],
        [[0, "conversation"], []],
        [[0, "conversation", "speaker_a"], ""],
        [[0, "conversation", "speaker_b"], "delete"],
        [[0, "qa"], {}],
        [[0, "qa"], QA_HOLE],
        [[0, "qa"], "delete"],
      ],
      (json) => parseLocomo(json),
    );
  });
});

describe("the LoCoMo audit's plain checks refuse what its schema refuses", () => {
  const locomo: LocomoDataset = parseLocomo(LOCOMO_DOC);
  const AUDIT = [
    {
      question_id: "locomo_0_qa0",
      question: "Who said hi?",
      golden_answer: "Ana",
      category: 4,
      error_type: "WRONG_CITATION",
      cited_evidence: ["D1:1"],
      correct_evidence: ["D1:2"],
      reasoning: "r",
      correct_answer: "Ana",
    },
  ];
  it("accepts the entry as the schema does", () => {
    expect(parseLocomoAudit(AUDIT, locomo).entries[0]).toMatchObject({ questionId: "locomo_0_qa0", errorType: "WRONG_CITATION" });
  });
  it("reports every broken field", () => {
    const e = (field: string, bad: unknown): Mutation => [[0, field], bad];
    expectEachReported(
      AUDIT,
      [
        e("question_id", "locomo_00_qa0"),
        e("question_id", "locomo_0_qa"),
        e("question_id", 0),
        e("question", ""),
        e("golden_answer", 1),
        e("category", 0),
        e("category", "4"),
        e("error_type", "WRONG"),
        e("error_type", "delete"),
        e("cited_evidence", [4]),
        e("correct_evidence", "D1:2"),
        e("correct_evidence", HOLE),
        e("reasoning", null),
        e("correct_answer", "delete"),
        [[0], "locomo_0_qa0"],
      ],
      (json) => parseLocomoAudit(json, locomo),
    );
  });
});

describe("EpiRec's plain checks refuse what its schema refuses", () => {
  it("reports every broken field of the pinned document", async () => {
    const file = await resolveDataset(EPIREC, pinnedDataOptions());
    const json = JSON.parse(file.bytes.toString("utf8")) as { personas: { episodes: unknown[] }[] };
    const persona = (field: string, bad: unknown): Mutation => [["personas", 2, field], bad];
    const episode = (field: string, bad: unknown): Mutation => [["personas", 2, "episodes", 5, field], bad];
    const probe = (field: string, bad: unknown): Mutation => [["personas", 2, "episodes", 5, "probes", 1, field], bad];
    expectEachReported(
      json,
      [
        [["version"], "1.1"],
        [["version"], 1],
        [["reference_now"], "yesterday"],
        [["personas"], json.personas.slice(1)],
        persona("persona_id", ""),
        persona("name", 5),
        persona("age", "30"),
        persona("age", null),
        persona("context", 1),
        persona("episodes", json.personas[2]!.episodes.slice(1)),
        episode("id", ""),
        episode("session", 0),
        episode("session", 1.5),
        episode("session", "1"),
        episode("date_time", "2025-13-01T00:00:00+00:00"),
        episode("text", ""),
        episode("emotion", ""),
        episode("intensity_band", "extreme"),
        episode("valence", "mixed"),
        episode("probes", "delete"),
        probe("id", ""),
        probe("type", "other"),
        probe("query", ""),
        [["personas", 2, "episodes", 5, "probes", 1], null],
      ],
      (doc) => parseEpiRec(doc),
    );
  });
});

describe("zod loads only for a malformed value", () => {
  it("no module but src/zod.ts imports zod's code (the others import its types only)", () => {
    const src = new URL("../src/", import.meta.url);
    const importers = readdirSync(src, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .filter((f) =>
        /(?:^|\n)\s*import\s+(?!type\b)[^;]*?from\s+"zod(?:\/[^"]*)?"|import\(\s*"zod|require\(\s*"zod/.test(
          readFileSync(new URL(f, src), "utf8"),
        ),
      );
    expect(importers).toEqual([]);
  });

  it("loading every pinned file leaves zod unloaded; the first malformed value loads it for its message", () => {
    const index = new URL("../dist/index.js", import.meta.url).href;
    const script = `
      import { createRequire } from "node:module";
      const d = await import(${JSON.stringify(index)});
      const opts = JSON.parse(process.env.OPTS);
      const zodLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((k) => /[\\\\/]node_modules[\\\\/]zod[\\\\/]/.test(k));
      const locomo = await d.loadLocomo(opts);
      await d.loadLocomoAudit(locomo, opts);
      await d.loadEpiRec(opts);
      await d.loadEmoBank(opts);
      const pinned = zodLoaded();
      let message = "";
      try { d.parseLocomo([{ sample_id: "", conversation: {}, qa: [] }]); } catch (e) { message = e.message; }
      console.log(JSON.stringify({ pinned, malformed: zodLoaded(), message }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      env: { ...process.env, OPTS: JSON.stringify(pinnedDataOptions()) },
      encoding: "utf8",
    });
    const r = JSON.parse(out.trim().split("\n").pop()!) as { pinned: boolean; malformed: boolean; message: string };
    expect(r.pinned).toBe(false);
    expect(r.malformed).toBe(true);
    expect(r.message).toContain("[0].sample_id");
  });
});
