import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTinyBertModel, type TinyBertInfo } from "../src/embedders/tiny-bert.js";

/** A temp folder with the generated tiny model under `<root>/models/<model id>/`. */
export interface TinyModelFixture {
  root: string;
  modelRoot: string;
  info: TinyBertInfo;
  cleanup(): void;
}

/** Generate the tiny BERT model into a fresh temp folder (no network). */
export async function tinyModelFixture(seed = 1): Promise<TinyModelFixture> {
  const root = mkdtempSync(join(tmpdir(), "persode-minilm-"));
  const modelRoot = join(root, "models");
  const info = await writeTinyBertModel(modelRoot, { seed });
  return { root, modelRoot, info, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Euclidean norm. */
export function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  return Math.sqrt(s);
}

/** Largest absolute elementwise difference. */
export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
