import { describe, expect, it } from "vitest";
import { DatasetFormatError, LOCOMO, loadLocomo, parseLocomo } from "../src/index.js";
import { pinnedDataOptions } from "./helpers.js";

/** A minimal valid LoCoMo document (one conversation) for schema tests. */
function sample(): unknown[] {
  return [
    {
      sample_id: "conv-x",
      conversation: {
        speaker_a: "Ana",
        speaker_b: "Ben",
        session_2_date_time: "3:00 pm on 9 May, 2023",
        session_2: [{ speaker: "Ben", dia_id: "D2:1", text: "Later", blip_caption: "a photo of a cat" }],
        session_10_date_time: "3:00 pm on 19 May, 2023",
        session_10: [{ speaker: "Ana", dia_id: "D10:1", text: "Much later" }],
        session_1_date_time: "1:56 pm on 8 May, 2023",
        session_1: [
          { speaker: "Ana", dia_id: "D1:1", text: "Hi" },
          { speaker: "Ben", dia_id: "D1:2", text: "Hello", img_url: ["x"], query: "q" },
        ],
        session_11_date_time: "3:00 pm on 20 May, 2023",
        session_11_summary: "not a session",
      },
      qa: [
        { question: "Q1?", answer: "A", evidence: ["D1:1"], category: 4 },
        { question: "Q2?", answer: 2022, evidence: [], category: 2 },
        { question: "Q3?", adversarial_answer: "no", evidence: ["D2:1"], category: 5 },
      ],
      event_summary: {},
    },
  ];
}

function formatError(json: unknown): DatasetFormatError {
  try {
    parseLocomo(json);
  } catch (e) {
    if (e instanceof DatasetFormatError) return e;
    throw e;
  }
  throw new Error("expected a DatasetFormatError");
}

describe("parseLocomo", () => {
  it("orders sessions numerically, ignores date-only keys, maps captions and QA", () => {
    const d = parseLocomo(sample(), "abc", "mem.json");
    const c = d.conversations[0]!;
    expect(c.sampleId).toBe("conv-x");
    expect([c.speakerA, c.speakerB]).toEqual(["Ana", "Ben"]);
    expect(c.sessions.map((s) => s.index)).toEqual([1, 2, 10]);
    expect(c.sessions[0]!.timestampMs).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(c.sessions[0]!.dateTime).toBe("1:56 pm on 8 May, 2023");
    expect(c.sessions[0]!.turns).toEqual([
      { speaker: "Ana", text: "Hi", diaId: "D1:1" },
      { speaker: "Ben", text: "Hello", diaId: "D1:2" },
    ]);
    expect(c.sessions[1]!.turns[0]!.caption).toBe("a photo of a cat");
    expect(c.qa).toEqual([
      { question: "Q1?", answer: "A", category: 4, evidence: ["D1:1"] },
      { question: "Q2?", answer: 2022, category: 2, evidence: [] },
      { question: "Q3?", category: 5, evidence: ["D2:1"], adversarialAnswer: "no" },
    ]);
    expect(d.sha256).toBe("abc");
    expect(d.path).toBe("mem.json");
  });

  it("names the exact path of a bad field", () => {
    const bad = sample();
    const conv = bad[0] as { conversation: Record<string, unknown>; qa: Record<string, unknown>[] };
    conv.qa[1]!.category = "temporal";
    (conv.conversation.session_2 as Record<string, unknown>[])[0]!.dia_id = "2:1";
    conv.conversation.session_10_date_time = "31 May 2023";
    delete conv.conversation.session_1_date_time;
    const err = formatError(bad);
    const where = err.issues.map((i) => i.where);
    expect(where).toContain("[0].qa[1].category");
    expect(where).toContain("[0].conversation.session_2[0].dia_id");
    expect(where).toContain("[0].conversation.session_10_date_time");
    expect(where).toContain("[0].conversation.session_1_date_time");
    expect(err.message).toContain("[0].qa[1].category");
    expect(err.message).toContain('"31 May 2023"');
  });

  it("rejects duplicate dia_ids and a non-array root", () => {
    const bad = sample();
    const conv = (bad[0] as { conversation: Record<string, unknown> }).conversation;
    (conv.session_10 as Record<string, unknown>[])[0]!.dia_id = "D1:2";
    expect(formatError(bad).issues).toContainEqual({
      where: "[0].conversation.session_10[0].dia_id",
      message: 'duplicate dia_id "D1:2" (also at [0].conversation.session_1[1].dia_id)',
    });
    expect(formatError({}).issues[0]!.where).toBe("(root)");
  });

  it("reads a zero-padded session key from its own list and reports a session given twice", () => {
    const padded = sample();
    const conv = (padded[0] as { conversation: Record<string, unknown> }).conversation;
    conv.session_02 = conv.session_2;
    conv.session_02_date_time = conv.session_2_date_time;
    delete conv.session_2;
    delete conv.session_2_date_time;
    const c = parseLocomo(padded).conversations[0]!;
    expect(c.sessions.map((s) => s.index)).toEqual([1, 2, 10]);
    expect(c.sessions[1]!.turns.map((t) => t.diaId)).toEqual(["D2:1"]);

    conv.session_2 = [];
    conv.session_2_date_time = "3:00 pm on 9 May, 2023";
    expect(formatError(padded).issues).toContainEqual({
      where: "[0].conversation.session_2",
      message: "session 2 appears twice (also as session_02)",
    });
  });
});

describe("loadLocomo (pinned file)", () => {
  it("loads the verified file with its published shape", async () => {
    const d = await loadLocomo(pinnedDataOptions());
    expect(d.sha256).toBe(LOCOMO.sha256);
    expect(d.conversations).toHaveLength(10);
    const sessions = d.conversations.flatMap((c) => c.sessions);
    const turns = sessions.flatMap((s) => s.turns);
    const qa = d.conversations.flatMap((c) => c.qa);
    expect(sessions).toHaveLength(272);
    expect(turns).toHaveLength(5882);
    expect(turns.filter((t) => t.caption !== undefined)).toHaveLength(1226);
    expect(qa).toHaveLength(1986);
    expect(qa.filter((q) => q.category === 5)).toHaveLength(446);
    for (const c of d.conversations) {
      const idx = c.sessions.map((s) => s.index);
      expect(idx).toEqual([...idx].sort((a, b) => a - b));
      for (const s of c.sessions) expect(Number.isFinite(s.timestampMs)).toBe(true);
    }
    const first = d.conversations[0]!;
    expect(first.sampleId).toBe("conv-26");
    expect(first.sessions[0]!.timestampMs).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(first.sessions[0]!.turns[0]!.diaId).toBe("D1:1");
  });
});
