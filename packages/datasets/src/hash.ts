import { createHash } from "node:crypto";

/** Lower-case hex sha256 of one or more byte chunks hashed as a single stream. */
export function sha256Hex(...chunks: Uint8Array[]): string {
  const h = createHash("sha256");
  for (const c of chunks) h.update(c);
  return h.digest("hex");
}
