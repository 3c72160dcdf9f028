// `pnpm bench corpus` on bad corpora: every kind of problem is reported with the file and the
// line it is on (line numbers count the physical lines of quoted multi-line fields), the exit
// code is non-zero, and nothing at all is written. A persona with 3 or fewer episodes only warns.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listTree, runBench } from "./corpus-cli.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/corpus/", import.meta.url));
const BASE_EPISODES = join(FIXTURES, "base", "episodes.csv");
const BASE_PROBES = join(FIXTURES, "base", "probes.csv");
const bad = (file: string) => join(FIXTURES, "bad", file);

interface BadCase {
  name: string;
  episodes: string;
  probes: string;
  /** The file the error must name, and the line in it. */
  file: string;
  line: number;
  message: string;
}

const CASES: BadCase[] = [
  {
    name: "missing column in episodes.csv",
    episodes: bad("missing-column.episodes.csv"),
    probes: BASE_PROBES,
    file: bad("missing-column.episodes.csv"),
    line: 1,
    message: "missing column date_time",
  },
  {
    name: "missing column in probes.csv",
    episodes: BASE_EPISODES,
    probes: bad("missing-column.probes.csv"),
    file: bad("missing-column.probes.csv"),
    line: 1,
    message: "missing column type",
  },
  {
    name: "duplicate episode id",
    episodes: bad("duplicate-episode.episodes.csv"),
    probes: BASE_PROBES,
    file: bad("duplicate-episode.episodes.csv"),
    line: 11,
    message: 'duplicate episode_id "a2" (first at line 3)',
  },
  {
    name: "duplicate probe id",
    episodes: BASE_EPISODES,
    probes: bad("duplicate-probe.probes.csv"),
    file: bad("duplicate-probe.probes.csv"),
    line: 10,
    message: 'duplicate probe_id "b1-f" (first at line 6)',
  },
  {
    name: "probe targeting an unknown episode",
    episodes: BASE_EPISODES,
    probes: bad("unknown-episode.probes.csv"),
    file: bad("unknown-episode.probes.csv"),
    line: 10,
    message: 'target episode_id "b9" does not exist',
  },
  {
    name: "probe of an unknown persona",
    episodes: BASE_EPISODES,
    probes: bad("unknown-persona.probes.csv"),
    file: bad("unknown-persona.probes.csv"),
    line: 10,
    message: 'persona_id "c" has no episodes',
  },
  {
    name: "probe targeting another persona's episode",
    episodes: BASE_EPISODES,
    probes: bad("foreign-target.probes.csv"),
    file: bad("foreign-target.probes.csv"),
    line: 10,
    message: 'target episode_id "b2" belongs to persona "b"',
  },
  {
    name: "unparseable date",
    episodes: bad("bad-date.episodes.csv"),
    probes: BASE_PROBES,
    file: bad("bad-date.episodes.csv"),
    line: 7,
    message: 'unparseable date_time "8th of January 2025"',
  },
  {
    name: "empty text",
    episodes: bad("empty-text.episodes.csv"),
    probes: BASE_PROBES,
    file: bad("empty-text.episodes.csv"),
    line: 9,
    message: "empty text",
  },
  {
    name: "probes.csv with only a header row",
    episodes: BASE_EPISODES,
    probes: bad("header-only.probes.csv"),
    file: bad("header-only.probes.csv"),
    line: 1,
    message: "only a header row, no probe rows",
  },
  {
    name: "empty query",
    episodes: BASE_EPISODES,
    probes: bad("empty-query.probes.csv"),
    file: bad("empty-query.probes.csv"),
    line: 7,
    message: "empty query",
  },
];

describe("pnpm bench corpus rejects bad corpora with file and line, writing nothing", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "persode-corpus-errors-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("the shared base corpus itself is valid (so each case fails for its own reason)", async () => {
    const out = mkdtempSync(join(dir, "base-"));
    const run = await runBench(["corpus", "--episodes", BASE_EPISODES, "--probes", BASE_PROBES, "--out", out]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(listTree(out)).toContain("corpus_episodes.json");
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const out = mkdtempSync(join(dir, "out-"));
      const run = await runBench(["corpus", "--episodes", c.episodes, "--probes", c.probes, "--out", out]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/^error: CSV corpus "[^"]+" is invalid \(\d+ problems?\):\n/);
      // the first reported problem is this case's, at `file:line: message`
      const first = run.stderr.split("\n")[1]!;
      expect(first.startsWith(`  - ${c.file}:${c.line}: ${c.message}`), `first problem line was: ${first}`).toBe(true);
      expect(listTree(out)).toEqual([]);
    });
  }

  it("an invalid corpus leaves an earlier result of the same name untouched", async () => {
    const out = mkdtempSync(join(dir, "keep-"));
    const ok = await runBench(["corpus", "--episodes", BASE_EPISODES, "--probes", BASE_PROBES, "--name", "diary", "--out", out]);
    expect(ok.code).toBe(0);
    const before = listTree(out).map((f) => [f, f.endsWith(".json") || f.endsWith(".jsonl") ? readFileSync(join(out, f), "utf8") : ""]);
    const failed = await runBench([
      "corpus",
      "--episodes",
      bad("duplicate-episode.episodes.csv"),
      "--probes",
      BASE_PROBES,
      "--name",
      "diary",
      "--out",
      out,
    ]);
    expect(failed.code).toBe(1);
    expect(listTree(out).map((f) => [f, f.endsWith(".json") || f.endsWith(".jsonl") ? readFileSync(join(out, f), "utf8") : ""])).toEqual(
      before,
    );
  });

  it("a write that fails part-way publishes nothing: the earlier results stay as they were", async () => {
    const parent = mkdtempSync(join(dir, "partial-"));
    const out = join(parent, "results");
    const ok = await runBench(["corpus", "--episodes", BASE_EPISODES, "--probes", BASE_PROBES, "--name", "diary", "--out", out]);
    expect(ok.code).toBe(0);
    // The extended file is written after the results file and the rankings: a folder in its place makes that last write fail.
    rmSync(join(out, "corpus_diary_extended.json"));
    mkdirSync(join(out, "corpus_diary_extended.json", "blocker"), { recursive: true });
    const snapshot = () => listTree(out).map((f) => [f, statSync(join(out, f)).isFile() ? readFileSync(join(out, f), "utf8") : "(folder)"]);
    const before = snapshot();
    const failed = await runBench([
      "corpus",
      "--episodes",
      BASE_EPISODES,
      "--probes",
      BASE_PROBES,
      "--name",
      "diary",
      "--seed",
      "7",
      "--out",
      out,
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(join(out, "corpus_diary_extended.json"));
    expect(failed.stderr).not.toContain("staging");
    expect(snapshot()).toEqual(before);
    expect(listTree(parent).filter((f) => f.includes("staging"))).toEqual([]);
  });

  it("an unparseable --now is an error and writes nothing", async () => {
    const out = mkdtempSync(join(dir, "now-"));
    const run = await runBench(["corpus", "--episodes", BASE_EPISODES, "--probes", BASE_PROBES, "--now", "next Tuesday", "--out", out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('now="next Tuesday" is not an ISO-8601 date-time');
    expect(listTree(out)).toEqual([]);
  });

  it("a missing input file is named in the error and nothing is written", async () => {
    const out = mkdtempSync(join(dir, "missing-"));
    const absent = join(dir, "no-such-probes.csv");
    const run = await runBench(["corpus", "--episodes", BASE_EPISODES, "--probes", absent, "--out", out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(absent);
    expect(listTree(out)).toEqual([]);
  });
});

describe("pnpm bench corpus warns about personas with 3 or fewer episodes", () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "persode-corpus-warn-"));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("prints a warning on stderr, still runs, and records the warning in the results", async () => {
    const run = await runBench([
      "corpus",
      "--episodes",
      join(FIXTURES, "warn", "episodes.csv"),
      "--probes",
      join(FIXTURES, "warn", "probes.csv"),
      "--name",
      "warn",
      "--out",
      out,
    ]);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split("\n").filter((l) => l !== "");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warning: persona "c" has only 2 episodes; .*recall@3/);
    expect(run.stdout).toContain('corpus "warn": 3 personas, 10 episodes, 10 probes');
    const results = JSON.parse(readFileSync(join(out, "corpus_warn.json"), "utf8")) as {
      warnings: string[];
      benchmark: { personas: number };
    };
    expect(results.warnings).toEqual([warnings[0]!.slice("warning: ".length)]);
    expect(results.benchmark.personas).toBe(3);
    for (const slug of ["fused_persode", "gated_persode", "recency-only", "salience-only", "similarity-only"]) {
      const lines = readFileSync(join(out, "corpus_warn_rankings", `hashing_${slug}.jsonl`), "utf8")
        .trimEnd()
        .split("\n");
      expect(lines).toHaveLength(10);
      // persona c's rankings hold its own two episodes only
      for (const l of lines.map((x) => JSON.parse(x) as { persona_id: string; ranked_episode_ids: string[] })) {
        if (l.persona_id === "c") expect([...l.ranked_episode_ids].sort()).toEqual(["c1", "c2"]);
      }
    }
  });
});
