import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DatasetFormatError,
  DatasetIntegrityError,
  LOCOMO_AUDIT,
  loadLocomo,
  loadLocomoAudit,
  parseLocomo,
  parseLocomoAudit,
  resolveDataset,
  type LocomoDataset,
} from "../src/index.js";
import { cleanup, entries, pinnedDataOptions, startServer, tempDir, type LocalServer } from "./helpers.js";

/** A two-conversation LoCoMo document for the cross-checks. */
const LOCOMO_DOC = [0, 1].map((c) => ({
  sample_id: `conv-${c}`,
  conversation: {
    speaker_a: "Ana",
    speaker_b: "Ben",
    session_1_date_time: "1:56 pm on 8 May, 2023",
    session_1: [
      { speaker: "Ana", dia_id: "D1:1", text: "Hi" },
      { speaker: "Ben", dia_id: "D1:2", text: "Hello" },
    ],
  },
  qa: [
    { question: `When did Ana say hi (${c})?`, answer: "8 May 2023", evidence: ["D1:1"], category: 2 },
    { question: `Who answered (${c})?`, answer: "Ben", evidence: ["D1:2"], category: 4 },
  ],
}));
const LOCOMO_SMALL: LocomoDataset = parseLocomo(LOCOMO_DOC);

/** A valid audit entry for question `qa` of conversation `c` of LOCOMO_SMALL. */
function entry(c: number, qa: number, over: Record<string, unknown> = {}): Record<string, unknown> {
  const q = LOCOMO_DOC[c]!.qa[qa]!;
  return {
    question_id: `locomo_${c}_qa${qa}`,
    question: q.question,
    golden_answer: q.answer,
    category: q.category,
    error_type: "WRONG_CITATION",
    cited_evidence: q.evidence,
    correct_evidence: ["D1:2"],
    reasoning: "the other turn says it",
    correct_answer: q.answer,
    ...over,
  };
}

function formatError(json: unknown): DatasetFormatError {
  try {
    parseLocomoAudit(json, LOCOMO_SMALL);
  } catch (e) {
    if (e instanceof DatasetFormatError) return e;
    throw e;
  }
  throw new Error("expected a DatasetFormatError");
}

let servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await cleanup();
});

describe("parseLocomoAudit", () => {
  it("maps a valid entry onto its LoCoMo question (0-based conversation and qa index)", () => {
    const a = parseLocomoAudit(
      [entry(1, 0), entry(0, 1, { correct_evidence: [], error_type: "TEMPORAL_ERROR" })],
      LOCOMO_SMALL,
      "abc",
      "/x.json",
    );
    expect(a.sha256).toBe("abc");
    expect(a.entries).toHaveLength(2);
    expect(a.entries[0]).toMatchObject({
      questionId: "locomo_1_qa0",
      conversation: 1,
      qaIndex: 0,
      question: "When did Ana say hi (1)?",
      category: 2,
      citedEvidence: ["D1:1"],
      correctEvidence: ["D1:2"],
    });
    expect(a.entries[1]).toMatchObject({ conversation: 0, qaIndex: 1, errorType: "TEMPORAL_ERROR", correctEvidence: [] });
  });

  it("an unknown question id fails naming the entry (conversation and qa index out of range)", () => {
    const e = formatError([entry(0, 0), { ...entry(0, 0), question_id: "locomo_2_qa0" }, { ...entry(1, 1), question_id: "locomo_1_qa2" }]);
    expect(e.issues).toEqual([
      { where: "[1] (locomo_2_qa0).question_id", message: "unknown question: LoCoMo has 2 conversations (0-based), not 2" },
      { where: "[2] (locomo_1_qa2).question_id", message: "unknown question: conversation 1 (conv-1) has 2 questions (0-based), not 2" },
    ]);
    expect(e.message).toContain("[1] (locomo_2_qa0).question_id");
  });

  it("a mismatched question text, category or cited evidence fails naming the entry", () => {
    const e = formatError([
      entry(0, 0, { question: "When did Ben say hi (0)?" }),
      entry(0, 1, { category: 1 }),
      entry(1, 0, { cited_evidence: ["D1:2"] }),
      // another question's entry under a neighbouring id (what a 1-based id would produce)
      { ...entry(1, 0), question_id: "locomo_1_qa1" },
    ]);
    expect(e.issues.map((i) => i.where)).toEqual([
      "[0] (locomo_0_qa0).question",
      "[1] (locomo_0_qa1).category",
      "[2] (locomo_1_qa0).cited_evidence",
      "[3] (locomo_1_qa1).question",
      "[3] (locomo_1_qa1).category",
      "[3] (locomo_1_qa1).cited_evidence",
    ]);
    expect(e.issues[0]!.message).toContain('does not match LoCoMo\'s "When did Ana say hi (0)?"');
    expect(e.issues[1]!.message).toBe("1 does not match LoCoMo's category 4");
  });

  it("schema faults: every bad field with its path, duplicates and a wrong root", () => {
    const e = formatError([
      entry(0, 0, { question_id: "locomo_00_qa1" }),
      entry(0, 1, { error_type: "TYPO" }),
      entry(1, 0, { correct_evidence: "D1:2" }),
      (() => {
        const x = entry(1, 1);
        delete x.reasoning;
        return x;
      })(),
      entry(0, 0, { category: 6 }),
      entry(1, 0),
      entry(1, 0),
    ]);
    expect(e.issues.map((i) => i.where)).toEqual([
      "[0].question_id",
      "[1].error_type",
      "[2].correct_evidence",
      "[3].reasoning",
      "[4].category",
      "[6] (locomo_1_qa0).question_id",
    ]);
    expect(e.issues[0]!.message).toContain("locomo_<conversation>_qa<i>");
    expect(e.issues[1]!.message).toContain("WRONG_CITATION");
    expect(e.issues[5]!.message).toBe("duplicate question_id (also at [5])");
    expect(formatError({ entries: [] }).issues).toEqual([{ where: "(root)", message: "expected an array of audit entries" }]);
    expect(formatError([]).issues).toEqual([{ where: "(root)", message: "the array holds no entries" }]);
  });
});

describe("loadLocomoAudit (pinned file, sha256-verified)", () => {
  it("pins errors.json of dial481/locomo-audit at 9493fb4 under CC BY-NC 4.0", () => {
    expect(LOCOMO_AUDIT.url).toBe(
      "https://raw.githubusercontent.com/dial481/locomo-audit/9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json",
    );
    expect(LOCOMO_AUDIT.sha256).toMatch(/^f298ef46[0-9a-f]{50}5fe55e$/);
    expect(LOCOMO_AUDIT.license).toBe("CC BY-NC 4.0");
  });

  it("loads the real audit: 156 questions, each matching its LoCoMo question", async () => {
    const locomo = await loadLocomo(pinnedDataOptions());
    const a = await loadLocomoAudit(locomo, pinnedDataOptions());
    expect(a.sha256).toBe(LOCOMO_AUDIT.sha256);
    expect(a.entries).toHaveLength(156);
    for (const e of a.entries) expect(locomo.conversations[e.conversation]!.qa[e.qaIndex]!.question).toBe(e.question);
    const asSet = (xs: string[]) => [...new Set(xs)].sort().join(" ");
    expect(a.entries.filter((e) => asSet(e.correctEvidence) !== asSet(e.citedEvidence))).toHaveLength(96);
    expect(a.entries.filter((e) => e.correctEvidence.length === 0).map((e) => e.questionId)).toEqual(["locomo_6_qa11"]);
  });

  it("wrong sha256: a served file that differs by one byte is rejected and never cached", async () => {
    const good = await readFile((await resolveDataset(LOCOMO_AUDIT, pinnedDataOptions())).path);
    const bad = Buffer.from(good);
    bad[10] = bad[10]! ^ 1;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": bad.length });
      res.end(bad);
    });
    servers.push(server);
    const cacheDir = await tempDir();
    const locomo = await loadLocomo(pinnedDataOptions());
    const err = await loadLocomoAudit(locomo, { cacheDir, url: server.url("/errors.json"), env: {}, offline: false }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatasetIntegrityError);
    expect((err as DatasetIntegrityError).expectedSha256).toBe(LOCOMO_AUDIT.sha256);
    expect((err as Error).message).toContain("LoCoMo audit (locomo_audit_errors.json)");
    expect(server.requests()).toBe(1);
    expect(await entries(cacheDir)).toEqual([]);

    // the same bytes as an explicit file: refused too
    const explicit = join(cacheDir, "errors.json");
    await writeFile(explicit, bad);
    await expect(loadLocomoAudit(locomo, { path: explicit, cacheDir, env: {} })).rejects.toBeInstanceOf(DatasetIntegrityError);
  });

  it("downloads the pinned bytes from a local server, verifies, caches and cross-checks them", async () => {
    const good = await readFile((await resolveDataset(LOCOMO_AUDIT, pinnedDataOptions())).path);
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": good.length });
      res.end(good);
    });
    servers.push(server);
    const cacheDir = await tempDir();
    const locomo = await loadLocomo(pinnedDataOptions());
    const a = await loadLocomoAudit(locomo, { cacheDir, url: server.url("/errors.json"), env: {}, offline: false });
    expect(a.entries).toHaveLength(156);
    expect(a.path).toBe(join(cacheDir, LOCOMO_AUDIT.fileName));
    expect(await entries(cacheDir)).toEqual([LOCOMO_AUDIT.fileName]);
  });

  it("verified bytes that do not belong to this LoCoMo fail the cross-check naming the entry", async () => {
    const a = await loadLocomoAudit(LOCOMO_SMALL, pinnedDataOptions()).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(DatasetFormatError);
    const issues = (a as DatasetFormatError).issues;
    expect(issues[0]).toMatchObject({ where: "[0] (locomo_0_qa1).question" });
    expect(issues.some((i) => i.where === "[2] (locomo_0_qa4).question_id" && i.message.startsWith("unknown question"))).toBe(true);
  });
});
