/**
 * Boolean environment flags (PERSODE_OFFLINE and friends), parsed one way for every package so that
 * "offline" never means one thing to the model loader and another to the dataset resolver.
 */

/**
 * Parse a boolean environment flag: "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off"/empty/unset (any case); anything else throws naming
 * `name`.
 */
export function parseEnvFlag(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (["1", "true", "yes", "on"].includes(v)) return true;
  if (["", "0", "false", "no", "off"].includes(v)) return false;
  throw new Error(`${name}=${JSON.stringify(value)} is not a boolean; use 1 or 0`);
}

/** Whether PERSODE_OFFLINE forbids every download (models and datasets alike). */
export function offlineFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return parseEnvFlag("PERSODE_OFFLINE", env.PERSODE_OFFLINE);
}
