import { join } from "node:path";
import { writeFileAtomic } from "@persode/util";
import { encodeOnnxModel, OnnxType, type OnnxInitializer, type OnnxNode } from "./onnx-writer.js";

/**
 * A tiny BERT-shaped model folder generated in JavaScript (no network, no Python), laid out as
 * transformers.js expects: config.json, tokenizer.json (WordPiece), tokenizer_config.json and
 * onnx/model.onnx. It runs through the same transformers.js code path as all-MiniLM-L6-v2, so tests
 * and offline smoke runs exercise the real pipeline. The vectors carry no semantics.
 */

/** Model id the tiny model is written under by default (a folder below the model root). */
export const TINY_BERT_MODEL_ID = "persode/tiny-bert";

/** Options of the tiny model generator. */
export interface TinyBertOptions {
  /** Folder name below the model root, like a Hub id (default "persode/tiny-bert"). */
  modelId?: string;
  /** Hidden size = embedding dimension (default 32). */
  hiddenSize?: number;
  /** Seed of the deterministic weight generator (default 1). */
  seed?: number;
}

/** What was generated: the model id, its folder, and its shape. */
export interface TinyBertInfo {
  readonly modelId: string;
  readonly modelDir: string;
  readonly hiddenSize: number;
  readonly vocabSize: number;
}

const SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;
const WORDS = (
  "the a an and or but if of to in on at for with from by about as into over after before " +
  "i me my we our you your he him his she her it its they them their this that these those " +
  "is am are was were be been being have has had do did does will would can could should " +
  "not no yes very so too just also more most much many some any all every each " +
  "day today yesterday tomorrow morning night week year time home work school family friend " +
  "friends mom dad brother sister dog cat food dinner lunch breakfast walk run trip party " +
  "happy sad angry tired excited worried calm proud lonely grateful love like hate feel felt " +
  "went go going got get make made see saw said say think thought talk talked play played " +
  "good bad great new old big small long first last remember memory journal"
).split(" ");
const PUNCT = [".", ",", "!", "?", "'", "-", ":", ";", '"', "(", ")"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789".split("");

/** The WordPiece vocabulary: specials, whole words, single characters and "##" continuations. */
function tinyVocab(): string[] {
  const seen = new Set<string>();
  const vocab: string[] = [];
  for (const t of [...SPECIAL, ...WORDS, ...LETTERS, ...PUNCT, ...LETTERS.map((c) => "##" + c)]) {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  }
  return vocab;
}

/** mulberry32: a small deterministic PRNG giving floats in [0, 1). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weights(rand: () => number, n: number, scale: number): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rand() * 2 - 1) * scale;
  return out;
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(value, null, 2) + "\n");
}

/**
 * The tiny model's vocabulary and float32 weights (pure and deterministic in the options).
 * @internal exported for tests only: the return type of tinyBertWeights.
 */
export interface TinyBertWeights {
  readonly hiddenSize: number;
  readonly vocab: readonly string[];
  /** [vocab, hidden] */
  readonly word: Float32Array;
  /** [2, hidden] */
  readonly tokenType: Float32Array;
  /** [2, hidden], indexed by the attention mask value */
  readonly mask: Float32Array;
  /** [hidden, hidden], row-major (input index major) */
  readonly dense: Float32Array;
  /** [hidden] */
  readonly bias: Float32Array;
}

/**
 * Generate the tiny model's vocabulary and weights.
 * @internal exported for tests only: test/minilm.test.ts recomputes the forward pass from the weights.
 */
export function tinyBertWeights(options: TinyBertOptions = {}): TinyBertWeights {
  const hidden = options.hiddenSize ?? 32;
  const seed = options.seed ?? 1;
  if (!Number.isInteger(hidden) || hidden < 1) throw new RangeError(`tiny BERT: hiddenSize must be a positive integer, got ${hidden}`);
  if (!Number.isInteger(seed)) throw new RangeError(`tiny BERT: seed must be an integer, got ${seed}`);
  const vocab = tinyVocab();
  const rand = prng(seed);
  return {
    hiddenSize: hidden,
    vocab,
    word: weights(rand, vocab.length * hidden, 1),
    tokenType: weights(rand, 2 * hidden, 0.1),
    mask: weights(rand, 2 * hidden, 0.1),
    dense: weights(rand, hidden * hidden, 1 / Math.sqrt(hidden)),
    bias: weights(rand, hidden, 0.1),
  };
}

/**
 * The tiny model's files as relative path -> bytes (pure; identical options give identical bytes).
 * Graph: last_hidden_state = tanh((E_word[input_ids] + E_type[token_type_ids] + E_mask[attention_mask]) · W + b).
 */
export function tinyBertFiles(options: TinyBertOptions = {}): Map<string, Uint8Array> {
  const w = tinyBertWeights(options);
  const hidden = w.hiddenSize;
  const vocab = w.vocab;
  const V = vocab.length;
  const inits: OnnxInitializer[] = [
    { name: "word_embeddings", dims: [V, hidden], data: w.word },
    { name: "token_type_embeddings", dims: [2, hidden], data: w.tokenType },
    { name: "mask_embeddings", dims: [2, hidden], data: w.mask },
    { name: "dense_weight", dims: [hidden, hidden], data: w.dense },
    { name: "dense_bias", dims: [hidden], data: w.bias },
  ];
  const nodes: OnnxNode[] = [
    { name: "word_lookup", opType: "Gather", inputs: ["word_embeddings", "input_ids"], outputs: ["e_word"] },
    { name: "type_lookup", opType: "Gather", inputs: ["token_type_embeddings", "token_type_ids"], outputs: ["e_type"] },
    { name: "mask_lookup", opType: "Gather", inputs: ["mask_embeddings", "attention_mask"], outputs: ["e_mask"] },
    { name: "add_type", opType: "Add", inputs: ["e_word", "e_type"], outputs: ["s1"] },
    { name: "add_mask", opType: "Add", inputs: ["s1", "e_mask"], outputs: ["s2"] },
    { name: "dense", opType: "MatMul", inputs: ["s2", "dense_weight"], outputs: ["h"] },
    { name: "dense_add_bias", opType: "Add", inputs: ["h", "dense_bias"], outputs: ["h_b"] },
    { name: "activation", opType: "Tanh", inputs: ["h_b"], outputs: ["last_hidden_state"] },
  ];
  const tokenShape = ["batch_size", "sequence_length"];
  const onnx = encodeOnnxModel({
    graphName: "tiny_bert",
    producer: "persode-tiny-bert",
    irVersion: 8,
    opset: 14,
    nodes,
    initializers: inits,
    inputs: [
      { name: "input_ids", elemType: OnnxType.INT64, shape: tokenShape },
      { name: "attention_mask", elemType: OnnxType.INT64, shape: tokenShape },
      { name: "token_type_ids", elemType: OnnxType.INT64, shape: tokenShape },
    ],
    outputs: [{ name: "last_hidden_state", elemType: OnnxType.FLOAT, shape: ["batch_size", "sequence_length", hidden] }],
  });

  const id = (t: string): number => vocab.indexOf(t);
  const vocabObj: Record<string, number> = {};
  vocab.forEach((t, i) => (vocabObj[t] = i));
  const tokenizer = {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((t) => ({
      id: id(t),
      content: t,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: {
        "[CLS]": { id: "[CLS]", ids: [id("[CLS]")], tokens: ["[CLS]"] },
        "[SEP]": { id: "[SEP]", ids: [id("[SEP]")], tokens: ["[SEP]"] },
      },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: vocabObj },
  };
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    mask_token: "[MASK]",
  };
  const config = {
    architectures: ["BertModel"],
    model_type: "bert",
    hidden_size: hidden,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: hidden,
    hidden_act: "tanh",
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: V,
    pad_token_id: id("[PAD]"),
  };
  return new Map<string, Uint8Array>([
    ["config.json", json(config)],
    ["tokenizer.json", json(tokenizer)],
    ["tokenizer_config.json", json(tokenizerConfig)],
    ["onnx/model.onnx", onnx],
  ]);
}

/**
 * Write the tiny model under `rootDir/<modelId>/` (rootDir works as PERSODE_MODEL_DIR);
 * each file goes to a temp name first and is renamed into place.
 */
export async function writeTinyBertModel(rootDir: string, options: TinyBertOptions = {}): Promise<TinyBertInfo> {
  const modelId = options.modelId ?? TINY_BERT_MODEL_ID;
  const modelDir = join(rootDir, ...modelId.split("/"));
  const files = tinyBertFiles(options);
  for (const [rel, bytes] of files) {
    const target = join(modelDir, rel);
    await writeFileAtomic(target, bytes);
  }
  const config = JSON.parse(new TextDecoder().decode(files.get("config.json"))) as { hidden_size: number; vocab_size: number };
  return { modelId, modelDir, hiddenSize: config.hidden_size, vocabSize: config.vocab_size };
}
