/**
 * @persode/core/testing — test support, not part of the memory model: a seeded generator of a tiny
 * BERT-shaped ONNX model (with tokenizer and config) that the real transformers.js pipeline can load
 * offline, so the MiniLM code path is tested without downloading a model.
 */

/** Write the tiny model under `<root>/<model id>/`, list its files, and its model id. */
export { writeTinyBertModel, tinyBertFiles, TINY_BERT_MODEL_ID, type TinyBertOptions, type TinyBertInfo } from "./embedders/tiny-bert.js";
