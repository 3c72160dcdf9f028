/**
 * A minimal ONNX model encoder: just enough of the onnx.proto3 wire format (ModelProto, GraphProto,
 * NodeProto, TensorProto, ValueInfoProto) to write small inference graphs from JavaScript, with no
 * Python or protobuf toolchain. Used to generate the tiny BERT-shaped test model (see tiny-bert.ts).
 */

/** ONNX TensorProto element types this writer supports. */
export const OnnxType = { FLOAT: 1, INT64: 7 } as const;
/** One of the supported ONNX element type codes. */
type OnnxElemType = (typeof OnnxType)[keyof typeof OnnxType];

/** A graph node: operator type, input and output value names. */
export interface OnnxNode {
  readonly opType: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly name: string;
}

/** A constant float32 weight stored in the graph. */
export interface OnnxInitializer {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array;
}

/** A graph input or output: name, element type and shape (number = fixed, string = symbolic). */
interface OnnxValueInfo {
  readonly name: string;
  readonly elemType: OnnxElemType;
  readonly shape: readonly (number | string)[];
}

/** A whole single-graph model in the default ONNX domain. */
export interface OnnxModel {
  readonly graphName: string;
  readonly producer: string;
  readonly opset: number;
  readonly irVersion: number;
  readonly nodes: readonly OnnxNode[];
  readonly initializers: readonly OnnxInitializer[];
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
}

/** Protobuf message builder (fields appended in call order, which keeps output deterministic). */
class Message {
  private readonly parts: Uint8Array[] = [];

  private pushVarint(value: bigint): void {
    if (value < 0n) value = BigInt.asUintN(64, value);
    const bytes: number[] = [];
    do {
      let b = Number(value & 0x7fn);
      value >>= 7n;
      if (value !== 0n) b |= 0x80;
      bytes.push(b);
    } while (value !== 0n);
    this.parts.push(Uint8Array.from(bytes));
  }

  private key(field: number, wireType: 0 | 2): void {
    this.pushVarint(BigInt((field << 3) | wireType));
  }

  int(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.pushVarint(BigInt(value));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.key(field, 2);
    this.pushVarint(BigInt(value.length));
    this.parts.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: Message): this {
    return this.bytes(field, value.finish());
  }

  finish(): Uint8Array {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let off = 0;
    for (const p of this.parts) {
      out.set(p, off);
      off += p.length;
    }
    return out;
  }
}

function valueInfo(v: OnnxValueInfo): Message {
  const shape = new Message();
  for (const d of v.shape) {
    const dim = new Message();
    if (typeof d === "number") dim.int(1, d);
    else dim.string(2, d);
    shape.message(1, dim);
  }
  const tensorType = new Message().int(1, v.elemType).message(2, shape);
  const type = new Message().message(1, tensorType);
  return new Message().string(1, v.name).message(2, type);
}

function initializer(t: OnnxInitializer): Message {
  const expected = t.dims.reduce((a, b) => a * b, 1);
  if (t.data.length !== expected) {
    throw new RangeError(`onnx initializer "${t.name}": ${t.data.length} values for dims [${t.dims.join(", ")}] (expected ${expected})`);
  }
  const m = new Message();
  for (const d of t.dims) m.int(1, d);
  m.int(2, OnnxType.FLOAT).string(8, t.name);
  const raw = new Uint8Array(t.data.length * 4);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < t.data.length; i++) view.setFloat32(i * 4, t.data[i]!, true); // ONNX raw_data is little-endian
  return m.bytes(9, raw);
}

function node(n: OnnxNode): Message {
  const m = new Message();
  for (const i of n.inputs) m.string(1, i);
  for (const o of n.outputs) m.string(2, o);
  return m.string(3, n.name).string(4, n.opType);
}

/** Serialise a model to ONNX protobuf bytes; identical input gives identical bytes. */
export function encodeOnnxModel(model: OnnxModel): Uint8Array {
  const graph = new Message();
  for (const n of model.nodes) graph.message(1, node(n));
  graph.string(2, model.graphName);
  for (const t of model.initializers) graph.message(5, initializer(t));
  for (const v of model.inputs) graph.message(11, valueInfo(v));
  for (const v of model.outputs) graph.message(12, valueInfo(v));
  const opset = new Message().string(1, "").int(2, model.opset);
  return new Message().int(1, model.irVersion).string(2, model.producer).message(7, graph).message(8, opset).finish();
}
