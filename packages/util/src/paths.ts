import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The per-user cache directory for datasets, models and embeddings:
 * `PERSODE_DATA_DIR` when set, else `$XDG_CACHE_HOME/persode`, else `~/.cache/persode`.
 */
export function persodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PERSODE_DATA_DIR) return env.PERSODE_DATA_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(base, "persode");
}
