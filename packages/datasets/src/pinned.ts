/** A public dataset pinned to one exact release: where to fetch it and the sha256 its bytes must have (docs/spec.md §8). */
export interface PinnedDataset {
  /** Short key used in messages and by callers. */
  name: "locomo" | "epirec" | "locomo-audit" | "emobank" | "longmemeval-s" | "longmemeval-oracle";
  /** File name in the cache and in a mirror folder. */
  fileName: string;
  /** Pinned download URL (a commit-addressed raw file, so the bytes never move). */
  url: string;
  /** Lower-case hex sha256 every byte sequence must match before it is used. */
  sha256: string;
  /** Licence of the data (never of this code). */
  license: string;
  /** How to cite the data when results are published. */
  citation: string;
  /** Environment variable that names an explicit local copy of the file. */
  envPathVar: string;
  /** Exact size in bytes, when pinned: a file of another size is named as truncated or wrong before hashing. */
  size?: number;
}

/**
 * LoCoMo (Maharana et al., ACL 2024), 10 long conversations with QA; CC BY-NC 4.0, downloaded on demand and never redistributed
 * (docs/spec.md §7 Exp. 5, §8).
 */
export const LOCOMO: PinnedDataset = Object.freeze({
  name: "locomo",
  fileName: "locomo10.json",
  url: "https://raw.githubusercontent.com/snap-research/LoCoMo/3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json",
  sha256: "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
  license: "CC BY-NC 4.0",
  citation:
    "Maharana, A., Lee, D.-H., Tulyakov, S., Bansal, M., Barbieri, F., Fang, Y. (2024). Evaluating Very Long-Term Conversational " +
    "Memory of LLM Agents. ACL 2024.",
  envPathVar: "PERSODE_LOCOMO_PATH",
});

/** EpiRec v1.0 (Jin, 2026), 12 personas × 14 episodes × 3 probes; CC BY 4.0, frozen release (docs/spec.md §7 Exp. 6, §8). */
export const EPIREC: PinnedDataset = Object.freeze({
  name: "epirec",
  fileName: "epirec_v1.json",
  url: "https://raw.githubusercontent.com/sukoji/epirec/7611fb4d0e05c634e8c4939dcf4121f2e7482868/data/epirec_v1.json",
  sha256: "1bf40ccdfa74f822bfc054ace51091a4d4de3eacc2e1425302a83bceca7d4757",
  license: "CC BY 4.0",
  citation:
    "Jin (2026). EpiRec v1.0 — Episodic Recall: A Benchmark for Emotional Resurfacing and Factual Lookup in Memory-Augmented Agents. " +
    "https://github.com/sukoji/epirec",
  envPathVar: "PERSODE_EPIREC_PATH",
});

/**
 * The LoCoMo gold-label audit (dial481/locomo-audit, `errors.json`): 156 questions with an error type and corrected
 * evidence and answer. An LLM-assisted audit with human review — a second label set, not ground truth. CC BY-NC 4.0,
 * downloaded on demand and never redistributed; read only together with LoCoMo (docs/spec.md §7 Exp. 5, §8).
 */
export const LOCOMO_AUDIT: PinnedDataset = Object.freeze({
  name: "locomo-audit",
  fileName: "locomo_audit_errors.json",
  url: "https://raw.githubusercontent.com/dial481/locomo-audit/9493fb4b4af4256ed17a18e8fd0b3cfdeec29539/errors.json",
  sha256: "f298ef46263fada20688a1d672be37d4f488c6da3b19343eea55ae5c1b5fe55e",
  license: "CC BY-NC 4.0",
  citation:
    "dial481 (2025). locomo-audit: an LLM-assisted, human-reviewed audit of the LoCoMo gold labels (errors.json). https://github.com/dial481/locomo-audit",
  envPathVar: "PERSODE_LOCOMO_AUDIT_PATH",
});

/**
 * EmoBank (Buechel & Hahn, EACL 2017), 10,062 sentences with valence, arousal, dominance on 1–5 and a train/dev/test split; CC BY-SA 4.0
 * (Exp. 7).
 */
export const EMOBANK: PinnedDataset = Object.freeze({
  name: "emobank",
  fileName: "emobank.csv",
  url: "https://raw.githubusercontent.com/JULIELab/EmoBank/248ce2a43e165a66d31aeaed83cff9641d6654e0/corpus/emobank.csv",
  sha256: "1ade4a4a453e880c0f39d0536d2b355e8a716e0cf88236c64cdb4d438cf9605b",
  license: "CC BY-SA 4.0",
  citation:
    "Buechel, S., Hahn, U. (2017). EmoBank: Studying the Impact of Annotation Perspective and Representation Format on Dimensional " +
    "Emotion Analysis. EACL 2017.",
  envPathVar: "PERSODE_EMOBANK_PATH",
});

const LONGMEMEVAL_CITATION =
  "Wu, D., Wang, H., Yu, W., Zhang, Y., Chang, K.-W., Yu, D. (2025). LongMemEval: Benchmarking Chat Assistants on Long-Term Interactive Memory. ICLR 2025.";
const LONGMEMEVAL_HUB = "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/98d7416c24c778c2fee6e6f3006e7a073259d48f";

/**
 * LongMemEval_S (cleaned), 500 questions over ≈ 115k-token haystacks; MIT; hub dataset xiaowu0162/longmemeval-cleaned at a pinned revision
 * (Exp. 8).
 */
export const LONGMEMEVAL_S: PinnedDataset = Object.freeze({
  name: "longmemeval-s",
  fileName: "longmemeval_s_cleaned.json",
  url: `${LONGMEMEVAL_HUB}/longmemeval_s_cleaned.json`,
  sha256: "d6f21ea9d60a0d56f34a05b609c79c88a451d2ae03597821ea3d5a9678c3a442",
  size: 277_383_467,
  license: "MIT",
  citation: LONGMEMEVAL_CITATION,
  envPathVar: "PERSODE_LONGMEMEVAL_S_PATH",
});

/** LongMemEval oracle: the same 500 questions over their evidence sessions only; MIT; same pinned hub revision (Exp. 8). */
export const LONGMEMEVAL_ORACLE: PinnedDataset = Object.freeze({
  name: "longmemeval-oracle",
  fileName: "longmemeval_oracle.json",
  url: `${LONGMEMEVAL_HUB}/longmemeval_oracle.json`,
  sha256: "821a2034d219ab45846873dd14c14f12cfe7776e73527a483f9dac095d38620c",
  size: 15_388_478,
  license: "MIT",
  citation: LONGMEMEVAL_CITATION,
  envPathVar: "PERSODE_LONGMEMEVAL_ORACLE_PATH",
});

/**
 * The LongMemEval files: pinned like the others but not needed by `pnpm bench all` (the hub is often unreachable; Exp. 8 runs on `--data
 * FILE` too).
 */
export const LONGMEMEVAL_DATASETS: readonly PinnedDataset[] = Object.freeze([LONGMEMEVAL_S, LONGMEMEVAL_ORACLE]);

/** Every pinned dataset, in the order `data fetch` resolves them (a mirror folder holds them all by `fileName`). */
export const PINNED_DATASETS: readonly PinnedDataset[] = Object.freeze([LOCOMO, EPIREC, LOCOMO_AUDIT, EMOBANK]);

const LABELS: Record<PinnedDataset["name"], string> = {
  locomo: "LoCoMo",
  epirec: "EpiRec v1.0",
  "locomo-audit": "LoCoMo audit",
  emobank: "EmoBank",
  "longmemeval-s": "LongMemEval_S",
  "longmemeval-oracle": "LongMemEval oracle",
};

/** Human-readable label for messages, e.g. "LoCoMo (locomo10.json)". */
export function datasetLabel(ds: PinnedDataset): string {
  const pretty = LABELS[ds.name] ?? ds.name;
  return `${pretty} (${ds.fileName})`;
}
