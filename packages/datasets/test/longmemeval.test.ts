import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  DatasetFormatError,
  DatasetIntegrityError,
  DatasetUnavailableError,
  LONGMEMEVAL_ORACLE,
  LONGMEMEVAL_S,
  generateLongMemEval,
  loadLongMemEval,
  parseLongMemEval,
  parseLongMemEvalDate,
  sha256Hex,
  syntheticLongMemEvalBytes,
} from "../src/index.js";
import { cleanup, entries, startServer, tempDir, type LocalServer } from "./helpers.js";

const FIXTURE = join(__dirname, "fixtures/longmemeval/synthetic.json");
const small = Buffer.from(syntheticLongMemEvalBytes(generateLongMemEval({ seed: 3, questions: 8, sessions: 4, turns: 4, words: 6 })));

let servers: LocalServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
  await cleanup();
});

/** A pinned dataset over `bytes` (its sha256 and size), unreachable unless a URL is given. */
function pinnedOver(bytes: Buffer) {
  return {
    ...LONGMEMEVAL_S,
    fileName: "lme_test.json",
    sha256: sha256Hex(bytes),
    size: bytes.length,
    url: "http://127.0.0.1:9/unreachable",
    envPathVar: "PERSODE_LME_TEST",
  };
}

describe("LongMemEval pins", () => {
  it("pin the hub revision, sizes and sha256 of S and oracle", () => {
    expect(LONGMEMEVAL_S.url).toBe(
      "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/98d7416c24c778c2fee6e6f3006e7a073259d48f/longmemeval_s_cleaned.json",
    );
    expect([LONGMEMEVAL_S.size, LONGMEMEVAL_S.sha256]).toEqual([
      277_383_467,
      "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442",
    ]);
    expect([LONGMEMEVAL_ORACLE.size, LONGMEMEVAL_ORACLE.sha256]).toEqual([
      15_388_478,
      "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c",
    ]);
    expect(LONGMEMEVAL_ORACLE.url.endsWith("/98d7416c24c778c2fee6e6f3006e7a073259d48f/longmemeval_oracle.json")).toBe(true);
  });
});

describe("LongMemEval dates", () => {
  it("parse `2023/05/20 (Sat) 02:21` as UTC and check the weekday separately", () => {
    expect(parseLongMemEvalDate("2023/05/20 (Sat) 02:21")).toEqual({ ms: Date.UTC(2023, 4, 20, 2, 21), weekdayMatches: true });
    expect(parseLongMemEvalDate("2023/05/20 (Mon) 02:21")?.weekdayMatches).toBe(false);
    expect(parseLongMemEvalDate("2023/02/30 (Thu) 02:21")).toBeUndefined();
    expect(parseLongMemEvalDate("2023-05-20 02:21")).toBeUndefined();
  });
});

describe("parseLongMemEval", () => {
  it("reads the fixture and counts every quirk the generator plants", () => {
    const bytes = readFileSync(FIXTURE);
    const ds = parseLongMemEval(bytes, sha256Hex(bytes), FIXTURE);
    expect(ds.questions).toHaveLength(24);
    expect(ds.quirks).toEqual({
      repeated_session_id: 5,
      dates_out_of_order: 6,
      evidence_only_in_assistant: 4,
      no_evidence_turn: 0,
      abstention: 3,
      answer_session_turn_without_has_answer: 0,
      weekday_mismatch: 0,
    });
    const q = ds.questions[0]!;
    expect(q.sessions).toHaveLength(q.sessions.length);
    expect(q.questionTimeMs).toBeGreaterThan(Math.max(...q.sessions.map((s) => s.timestampMs)));
  });

  it("the generator is deterministic in its seed", () => {
    const a = syntheticLongMemEvalBytes(generateLongMemEval({ seed: 9, questions: 5 }));
    expect(Buffer.from(syntheticLongMemEvalBytes(generateLongMemEval({ seed: 9, questions: 5 }))).equals(Buffer.from(a))).toBe(true);
    expect(Buffer.from(syntheticLongMemEvalBytes(generateLongMemEval({ seed: 10, questions: 5 }))).equals(Buffer.from(a))).toBe(false);
  });

  it("a malformed question is an error naming the file, the question id and the field", () => {
    const qs = JSON.parse(small.toString("utf8")) as Record<string, unknown>[];
    const id = qs[2]!.question_id as string;
    (qs[2]!.haystack_sessions as { role: string }[][])[1]![0]!.role = "system";
    qs[4]!.question_date = "yesterday";
    const bytes = Buffer.from(JSON.stringify(qs));
    let err: unknown;
    try {
      parseLongMemEval(bytes, sha256Hex(bytes), "/data/mine.json");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DatasetFormatError);
    const msg = (err as Error).message;
    expect(msg).toContain("/data/mine.json");
    expect(msg).toContain(`question ${id} (element 2).haystack_sessions[1][0].role`);
    expect(msg).toContain(`question ${qs[4]!.question_id as string} (element 4).question_date`);
    expect(msg).toContain('"yesterday" is not a date like "2023/05/20 (Sat) 02:21"');
  });

  it("a truncated file is an error saying so, with the number of complete questions", () => {
    const cut = small.subarray(0, Math.floor(small.length / 2));
    expect(() => parseLongMemEval(cut, sha256Hex(cut), "/data/cut.json")).toThrow(/cut\.json.*\n.*truncated/);
  });

  it("a repeated question id and a non-array top level are errors", () => {
    const qs = JSON.parse(small.toString("utf8")) as Record<string, unknown>[];
    qs[3]!.question_id = qs[0]!.question_id;
    const dup = Buffer.from(JSON.stringify(qs));
    expect(() => parseLongMemEval(dup, "", "/d.json")).toThrow(/element 3\)\.question_id: repeats the id of element 0/);
    expect(() => parseLongMemEval(Buffer.from('{"a": 1}'), "", "/d.json")).toThrow(/top level must be a JSON array/);
  });
});

describe("loadLongMemEval", () => {
  it("--data reads any LongMemEval-format file and records its provenance", async () => {
    const ds = await loadLongMemEval({ data: FIXTURE });
    expect(ds.provenance).toMatchObject({ dataset: "file", source: "data-file", pinned: false, sha256: sha256Hex(readFileSync(FIXTURE)) });
  });

  it("a missing --data file is a clear error", async () => {
    await expect(loadLongMemEval({ data: "/nonexistent/lme.json" })).rejects.toThrow(DatasetUnavailableError);
    await expect(loadLongMemEval({ data: "/nonexistent/lme.json" })).rejects.toThrow(
      /\/nonexistent\/lme\.json \(from --data\) cannot be read/,
    );
  });

  it("a pinned file: missing (offline) is unavailable; wrong sha256 or truncated is refused and nothing is cached", async () => {
    const root = await tempDir();
    const cacheDir = join(root, "cache");
    const mirrorDir = join(root, "mirror");
    const pinned = pinnedOver(small);
    await expect(loadLongMemEval({ pinned, cacheDir, mirrorDir, offline: true, env: {} })).rejects.toThrow(DatasetUnavailableError);
    // Wrong bytes at an explicit path: sha256 and size are named, and the cache stays empty.
    const wrong = join(root, "wrong.json");
    await writeFile(wrong, small.subarray(0, small.length - 10));
    const err = await loadLongMemEval({ pinned, cacheDir, path: wrong, offline: true, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DatasetIntegrityError);
    expect((err as Error).message).toMatch(new RegExp(`it is ${small.length - 10} bytes, the pinned file ${small.length}: truncated`));
    expect(await entries(cacheDir)).toEqual([]);
    // A truncated download is refused; neither the cache file nor a temporary file is left.
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-length": small.length });
      res.end(small.subarray(0, 100));
    });
    servers.push(server);
    await expect(
      loadLongMemEval({ pinned, cacheDir, url: server.url("/s.json"), env: {}, downloadTimeoutMs: 2000, progress: false }),
    ).rejects.toThrow();
    expect(await entries(cacheDir)).toEqual([]);
    // The good bytes from the mirror load, verified, and are cached.
    await writeFile(join(root, "m.json"), small);
    const { mkdir } = await import("node:fs/promises");
    await mkdir(mirrorDir, { recursive: true });
    await writeFile(join(mirrorDir, pinned.fileName), small);
    const ds = await loadLongMemEval({ pinned, cacheDir, mirrorDir, offline: true, env: {} });
    expect(ds.provenance).toMatchObject({ dataset: "longmemeval-s", source: "mirror", pinned: true, bytes: small.length });
    expect(await entries(cacheDir)).toEqual([pinned.fileName]);
  });
});
