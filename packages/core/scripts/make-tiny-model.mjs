#!/usr/bin/env node
// Generate the tiny BERT-shaped test model (ONNX + WordPiece tokenizer + config) in JavaScript,
// with no network: node packages/core/scripts/make-tiny-model.mjs <model-root> [--model owner/name] [--hidden 32] [--seed 1]
// The folder works as PERSODE_MODEL_DIR: PERSODE_MODEL_DIR=<model-root> PERSODE_OFFLINE=1 ... --embedder minilm
// with the model id printed below. Needs the built package (pnpm --filter @persode/core build).
import { parseArgs } from "node:util";
import { resolve } from "node:path";

const USAGE = "usage: make-tiny-model.mjs <model-root> [--model owner/name] [--hidden N] [--seed N]";

function positiveInt(name, value, min) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(value)}\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { model: { type: "string" }, hidden: { type: "string" }, seed: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
} catch (e) {
  console.error(`${e.message}\n${USAGE}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 1) {
  console.error(`expected exactly one model-root folder, got ${positionals.length}\n${USAGE}`);
  process.exit(2);
}

let core;
try {
  core = await import("../dist/testing.js");
} catch (e) {
  console.error(`cannot load @persode/core from dist (${e.message}); run: pnpm --filter @persode/core build`);
  process.exit(1);
}

const root = resolve(positionals[0]);
const options = {};
if (values.model) options.modelId = values.model;
if (values.hidden !== undefined) options.hiddenSize = positiveInt("hidden", values.hidden, 1);
if (values.seed !== undefined) options.seed = positiveInt("seed", values.seed, 0);
const info = await core.writeTinyBertModel(root, options);
console.log(`wrote ${info.modelDir} (hidden size ${info.hiddenSize}, vocabulary ${info.vocabSize})`);
console.log(`use it with: PERSODE_MODEL_DIR=${root} PERSODE_OFFLINE=1 and model id "${info.modelId}"`);
