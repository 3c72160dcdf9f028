// The results publisher owns only its files: an --out folder is never swapped or removed, a run
// publishes exactly the files it wrote (each by an atomic rename) and leaves every other file as it
// is, even one edited or added during the run; unsafe --out folders are refused before any work;
// killed runs' staging is cleaned up by the next run; a second run into the same folder is refused.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeFileAtomic } from "@persode/util";
import { main } from "../src/cli.js";
import { UsageError } from "../src/options.js";
import { StagedResults, resultsFolder } from "../src/staging.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

let base: string;
let out: string;
let stderr: string;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "persode-publisher-"));
  out = join(base, "out");
  mkdirSync(join(out, "figures"), { recursive: true });
  writeFileSync(join(out, "exp1.json"), "old exp1\n");
  writeFileSync(join(out, "figures", "f.svg"), "old figure\n");
  writeFileSync(join(out, "notes.txt"), "the user's notes\n");
  stderr = "";
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    stderr += String(s);
    return true;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(base, { recursive: true, force: true });
});

/** The pid of a process that has exited (so no live process holds it, for a while). */
function deadPid(): number {
  const r = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(r.stdout);
}

const own = (dir: string) => readdirSync(dir).filter((n) => n.startsWith(".persode-"));

describe("publishing", () => {
  it("publishes exactly the files the run wrote; files the user edited or added meanwhile stay as they are; the folder itself is never swapped", async () => {
    const inode = statSync(out).ino;
    const staged = StagedResults.begin(out);
    expect(staged.dir.startsWith(out)).toBe(true);
    // Staging links what `out` holds: the previous results are readable, no bytes were copied.
    expect(readFileSync(join(staged.dir, "exp1.json"), "utf8")).toBe("old exp1\n");
    expect(statSync(join(staged.dir, "exp1.json")).ino).toBe(statSync(join(out, "exp1.json")).ino);
    await writeFileAtomic(join(staged.dir, "exp1.json"), "new exp1\n");
    await writeFileAtomic(join(staged.dir, "figures", "g.svg"), "new figure\n");
    await writeFileAtomic(join(staged.dir, "rankings", "a.jsonl"), "{}\n");
    // Meanwhile the user edits one file of `out`, replaces another and adds a third.
    writeFileSync(join(out, "notes.txt"), "edited during the run\n");
    writeFileSync(join(out, "figures", "f.svg"), "the user's own figure\n");
    writeFileSync(join(out, "added.txt"), "added during the run\n");
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("old exp1\n");
    expect(staged.publish().sort()).toEqual(["exp1.json", join("figures", "g.svg"), join("rankings", "a.jsonl")]);
    expect(statSync(out).ino).toBe(inode);
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("new exp1\n");
    expect(readFileSync(join(out, "figures", "g.svg"), "utf8")).toBe("new figure\n");
    expect(readFileSync(join(out, "rankings", "a.jsonl"), "utf8")).toBe("{}\n");
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("edited during the run\n");
    expect(readFileSync(join(out, "figures", "f.svg"), "utf8")).toBe("the user's own figure\n");
    expect(readFileSync(join(out, "added.txt"), "utf8")).toBe("added during the run\n");
    expect(own(out)).toEqual([]);
    expect(readdirSync(base)).toEqual(["out"]);
  });

  it("a symlinked folder inside --out is never written through before publishing; published files land in it, the link stays a link", async () => {
    const elsewhere = join(base, "elsewhere");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "old.jsonl"), "old\n");
    symlinkSync(elsewhere, join(out, "rankings"));
    symlinkSync(out, join(out, "loop")); // a cycle is not followed
    const staged = StagedResults.begin(out);
    await writeFileAtomic(join(staged.dir, "rankings", "old.jsonl"), "new\n");
    await writeFileAtomic(join(staged.dir, "rankings", "added.jsonl"), "added\n");
    expect(readdirSync(elsewhere)).toEqual(["old.jsonl"]);
    expect(readFileSync(join(elsewhere, "old.jsonl"), "utf8")).toBe("old\n");
    staged.publish();
    expect(readdirSync(elsewhere).sort()).toEqual(["added.jsonl", "old.jsonl"]);
    expect(readFileSync(join(elsewhere, "old.jsonl"), "utf8")).toBe("new\n");
    expect(lstatSync(join(out, "rankings")).isSymbolicLink()).toBe(true);
  });

  it("a run that fails leaves the folder exactly as it was, with no staging and no lock", async () => {
    await expect(
      StagedResults.within(out, async (staged) => {
        await writeFileAtomic(join(staged.dir, "exp1.json"), "half a run\n");
        throw new Error(`failed writing ${join(staged.dir, "x")}`);
      }),
    ).rejects.toThrow(`failed writing ${join(out, "x")}`);
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("old exp1\n");
    expect(readdirSync(out).sort()).toEqual(["exp1.json", "figures", "notes.txt"]);
  });

  it("a folder that does not exist yet is created, and removed again when the run fails", async () => {
    const fresh = join(base, "fresh");
    await expect(StagedResults.within(fresh, async () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    expect(existsSync(fresh)).toBe(false);
    await StagedResults.within(fresh, async (staged) => {
      await writeFileAtomic(join(staged.dir, "a.json"), "a\n");
      staged.publish();
    });
    expect(readdirSync(fresh)).toEqual(["a.json"]);
  });

  it("publishes into a mount point (the folder cannot be renamed)", async (ctx) => {
    const mnt = join(base, "mnt");
    mkdirSync(mnt);
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "none", mnt], { stdio: "ignore" });
    } catch {
      ctx.skip(); // mounting needs privileges; the identity check above covers "never renamed"
    }
    try {
      writeFileSync(join(mnt, "keep.txt"), "kept\n");
      await StagedResults.within(mnt, async (staged) => {
        await writeFileAtomic(join(staged.dir, "exp1.json"), "on the mount\n");
        staged.publish();
      });
      expect(readFileSync(join(mnt, "exp1.json"), "utf8")).toBe("on the mount\n");
      expect(readdirSync(mnt).sort()).toEqual(["exp1.json", "keep.txt"]);
    } finally {
      execFileSync("umount", [mnt]);
    }
  });

  it("a staged extra file (the README) is renamed into place on publishing, and a killed run's leftover beside it is removed", async () => {
    const readme = join(base, "README.md");
    writeFileSync(readme, "old readme\n");
    const dead = deadPid();
    writeFileSync(`${readme}.staging-${dead}`, "left by a killed run\n");
    await StagedResults.within(out, async (staged) => {
      writeFileSync(staged.stageFileFor(readme), "new readme\n");
      staged.publish();
    });
    expect(readFileSync(readme, "utf8")).toBe("new readme\n");
    expect(readdirSync(base).sort()).toEqual(["README.md", "out"]);
    expect(stderr).toContain(`README.md.staging-${dead}, left by an interrupted run (pid ${dead})`);
  });
});

describe("leftovers and concurrent runs", () => {
  it("the staging folder of a killed run (dead pid) is removed by the next run, which says so", async () => {
    const dead = deadPid();
    const leftover = join(out, `.persode-staging-${dead}`);
    mkdirSync(join(leftover, "figures"), { recursive: true });
    writeFileSync(join(leftover, "exp1.json"), "stale\n");
    // the older layout, beside the folder
    const legacy = join(base, `.out.staging-${dead}`);
    mkdirSync(legacy);
    await StagedResults.within(out, async (staged) => {
      expect(readdirSync(staged.dir)).not.toContain(`.persode-staging-${dead}`);
      staged.publish();
    });
    expect(existsSync(leftover)).toBe(false);
    expect(existsSync(legacy)).toBe(false);
    expect(stderr).toContain(`removed ${leftover}, the staging folder of an interrupted run (pid ${dead})`);
    expect(stderr).toContain(`removed ${legacy}`);
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("old exp1\n");
  });

  it("a second run into the same folder is refused, naming the first run's pid; the first still publishes", async () => {
    const first = StagedResults.begin(out);
    expect(() => StagedResults.begin(out)).toThrow(UsageError);
    expect(() => StagedResults.begin(out)).toThrow(new RegExp(`another run \\(pid ${process.pid}, started .*\\) is writing into ${out}`));
    await writeFileAtomic(join(first.dir, "exp1.json"), "first\n");
    first.publish();
    expect(readFileSync(join(out, "exp1.json"), "utf8")).toBe("first\n");
    expect(own(out)).toEqual([]);
  });

  it("a lock held by another live process refuses the run; a lock of a dead pid is taken over with a note", async () => {
    writeFileSync(
      join(out, ".persode-lock"),
      JSON.stringify({ pid: process.ppid, host: (await import("node:os")).hostname(), started: "earlier" }),
    );
    expect(() => StagedResults.begin(out)).toThrow(`another run (pid ${process.ppid}, started earlier)`);
    const dead = deadPid();
    writeFileSync(join(out, ".persode-lock"), JSON.stringify({ pid: dead }));
    await StagedResults.within(out, async (staged) => {
      expect(JSON.parse(readFileSync(join(out, ".persode-lock"), "utf8")).pid).toBe(process.pid);
      staged.publish();
    });
    expect(stderr).toContain(`took over the lock of ${out} from pid ${dead}, which is no longer running`);
    expect(own(out)).toEqual([]);
  });
});

describe("--out folders that are refused before any work", () => {
  const cases: [string, string, RegExp][] = [
    ["an empty value", "", /--out is empty/],
    ["blank", "  ", /--out is empty/],
    ["the repository root", REPO, /is the repository root/],
    ["an ancestor of the repository root", dirname(resolve(REPO)), /an ancestor of the repository root/],
    ["the file-system root", "/", /the file-system root/],
    ["the home folder", homedir(), /your home folder|an ancestor of (your home folder|the repository root)/],
  ];
  for (const [name, value, message] of cases) {
    it(name, () => {
      expect(() => resultsFolder(value, "results", base)).toThrow(message);
    });
  }

  it("the root of another git repository; but an ordinary or new folder is fine", () => {
    mkdirSync(join(base, "repo", ".git"), { recursive: true });
    expect(() => resultsFolder("repo", "results", base)).toThrow(/root of a git repository/);
    expect(() => resultsFolder("repo/.git/objects", "results", base)).toThrow(/own \.git folder/);
    expect(resultsFolder("out", "results", base)).toBe(out);
    expect(resultsFolder(undefined, "results", base)).toBe(join(base, "results"));
    expect(resultsFolder("new/deeper", "results", base)).toBe(join(base, "new", "deeper"));
    expect(resultsFolder(join(REPO, "results"), "results", base)).toBe(join(REPO, "results"));
  });

  it("a symlink to the repository root is the repository root", () => {
    const link = join(base, "link");
    symlinkSync(REPO, link);
    expect(() => resultsFolder("link", "results", base)).toThrow(/the repository root/);
  });

  it('`pnpm bench exp1 --out ""` and `corpus --out /` exit 2 before writing anything', async () => {
    const cwd = process.cwd();
    process.chdir(base);
    try {
      vi.spyOn(process.stdout, "write").mockImplementation(() => true);
      expect(await main(["exp1", "--out", ""])).toBe(2);
      expect(await main(["exp1", "--out", "/"])).toBe(2);
      expect(await main(["corpus", "--episodes", "e.csv", "--probes", "p.csv", "--out", "/"])).toBe(2);
    } finally {
      process.chdir(cwd);
    }
    expect(stderr).toContain("--out is empty");
    expect(stderr).toContain("the file-system root");
    expect(readdirSync(base).sort()).toEqual(["out"]);
  });
});

describe("paths on the command line resolve from the caller's folder", () => {
  it("under `pnpm bench` (INIT_CWD), --episodes/--probes are the caller's and bench corpus writes to corpus-results/ there, not results/", async () => {
    const base2 = join(base, "caller");
    mkdirSync(base2);
    const fixtures = fileURLToPath(new URL("./fixtures/corpus/base/", import.meta.url));
    for (const f of ["episodes.csv", "probes.csv"]) writeFileSync(join(base2, f), readFileSync(join(fixtures, f)));
    const repoLike = join(base, "repo-root");
    mkdirSync(repoLike);
    vi.stubEnv("npm_lifecycle_event", "bench");
    vi.stubEnv("INIT_CWD", base2);
    const cwd = process.cwd();
    process.chdir(repoLike); // where pnpm runs the script
    try {
      vi.spyOn(process.stdout, "write").mockImplementation(() => true);
      expect(await main(["corpus", "--episodes", "episodes.csv", "--probes", "probes.csv", "--samples", "20"])).toBe(0);
    } finally {
      process.chdir(cwd);
      vi.unstubAllEnvs();
    }
    expect(readdirSync(join(base2, "corpus-results"))).toContain("corpus_episodes.json");
    expect(readdirSync(repoLike)).toEqual([]);
  });
});
