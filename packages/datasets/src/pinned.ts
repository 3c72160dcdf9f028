/** A public dataset pinned to one exact release: where to fetch it and the sha256 its bytes must have (SPEC §8). */
export interface PinnedDataset {
  /** Short key used in messages and by callers. */
  name: "locomo" | "epirec" | "emobank";
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
}

/** LoCoMo (Maharana et al., ACL 2024), 10 long conversations with QA; CC BY-NC 4.0, downloaded on demand and never redistributed (SPEC §7 Exp. 5, §8). */
export const LOCOMO: PinnedDataset = Object.freeze({
  name: "locomo",
  fileName: "locomo10.json",
  url: "https://raw.githubusercontent.com/snap-research/LoCoMo/3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376/data/locomo10.json",
  sha256: "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4",
  license: "CC BY-NC 4.0",
  citation:
    "Maharana, A., Lee, D.-H., Tulyakov, S., Bansal, M., Barbieri, F., Fang, Y. (2024). Evaluating Very Long-Term Conversational Memory of LLM Agents. ACL 2024.",
  envPathVar: "PERSODE_LOCOMO_PATH",
});

/** EpiRec v1.0 (Jin, 2026), 12 personas × 14 episodes × 3 probes; CC BY 4.0, frozen release (SPEC §7 Exp. 6, §8). */
export const EPIREC: PinnedDataset = Object.freeze({
  name: "epirec",
  fileName: "epirec_v1.json",
  url: "https://raw.githubusercontent.com/sukoji/epirec/7611fb4d0e05c634e8c4939dcf4121f2e7482868/data/epirec_v1.json",
  sha256: "1bf40ccdfa74f822bfc054ace51091a4d4de3eacc2e1425302a83bceca7d4757",
  license: "CC BY 4.0",
  citation:
    "Jin (2026). EpiRec v1.0 — Episodic Recall: A Benchmark for Emotional Resurfacing and Factual Lookup in Memory-Augmented Agents. https://github.com/sukoji/epirec",
  envPathVar: "PERSODE_EPIREC_PATH",
});

/** EmoBank (Buechel & Hahn, EACL 2017), 10,062 sentences with valence, arousal, dominance on 1–5 and a train/dev/test split; CC BY-SA 4.0 (Exp. 7). */
export const EMOBANK: PinnedDataset = Object.freeze({
  name: "emobank",
  fileName: "emobank.csv",
  url: "https://raw.githubusercontent.com/JULIELab/EmoBank/248ce2a43e165a66d31aeaed83cff9641d6654e0/corpus/emobank.csv",
  sha256: "1ade4a4a453e880c0f39d0536d2b355e8a716e0cf88236c64cdb4d438cf9605b",
  license: "CC BY-SA 4.0",
  citation:
    "Buechel, S., Hahn, U. (2017). EmoBank: Studying the Impact of Annotation Perspective and Representation Format on Dimensional Emotion Analysis. EACL 2017.",
  envPathVar: "PERSODE_EMOBANK_PATH",
});

/** Human-readable label for messages, e.g. "LoCoMo (locomo10.json)". */
export function datasetLabel(ds: PinnedDataset): string {
  const pretty = ds.name === "locomo" ? "LoCoMo" : ds.name === "epirec" ? "EpiRec v1.0" : ds.name === "emobank" ? "EmoBank" : ds.name;
  return `${pretty} (${ds.fileName})`;
}
