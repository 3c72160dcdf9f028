import { DatasetFormatError } from "./errors.js";

/** Decode UTF-8 bytes and parse them as JSON; a syntax error becomes a DatasetFormatError naming the file. */
export function parseJsonBytes(bytes: Uint8Array, subject: string): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new DatasetFormatError(subject, [{ where: "(file)", message: "not valid UTF-8" }]);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new DatasetFormatError(subject, [{ where: "(file)", message: `not valid JSON: ${(e as Error).message}` }]);
  }
}
