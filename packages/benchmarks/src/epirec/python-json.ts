/**
 * JSON text laid out exactly like Python's `json.dumps(value, indent=2)` (default
 * `ensure_ascii=True`), so the EpiRec official report is byte-identical to the
 * reference evaluator's file: floats print with Python's `repr` (`1.0`, `0.0`,
 * `1e-05`), integers without a decimal point, non-ASCII escaped as `\uXXXX`.
 */

/** A number to print as a Python float (`1.0`, not `1`). Plain JS numbers print as integers when integral. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** An object whose keys print in exactly this order (JS objects move integer-like keys first). */
export class PyDict {
  constructor(readonly entries: ReadonlyArray<readonly [string, PyJson]>) {}
}

/** A value the writer understands. */
export type PyJson = null | boolean | string | number | PyFloat | PyDict | readonly PyJson[];

/** Python's `repr(float)`: shortest round-trip digits; scientific outside 1e-4 ≤ |x| < 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  if (x === 0) return `${sign}0.0`;
  const [mantissa, expText] = Math.abs(x).toExponential().split("e") as [string, string];
  const exp = Number(expText);
  const digits = mantissa.replace(".", "");
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${"0".repeat(-exp - 1)}${digits}`;
    const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, "0");
    const frac = digits.slice(exp + 1);
    return `${sign}${intPart}.${frac === "" ? "0" : frac}`;
  }
  const expAbs = String(Math.abs(exp)).padStart(2, "0");
  return `${sign}${mantissa}e${exp < 0 ? "-" : "+"}${expAbs}`;
}

/** A JSON string literal with Python's ensure_ascii escaping (lowercase hex, surrogate pairs). */
export function pyStringLiteral(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function writeNumber(x: number): string {
  if (Number.isInteger(x)) return Object.is(x, -0) ? "0" : String(x).includes("e") ? BigInt(x).toString() : String(x);
  return pyFloatRepr(x);
}

function write(value: PyJson, indent: number, depth: number): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pyStringLiteral(value);
  if (typeof value === "number") return writeNumber(value);
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  const inner = "\n" + " ".repeat(indent * (depth + 1));
  const outer = "\n" + " ".repeat(indent * depth);
  if (value instanceof PyDict) {
    if (value.entries.length === 0) return "{}";
    const parts = value.entries.map(([k, v]) => `${pyStringLiteral(k)}: ${write(v, indent, depth + 1)}`);
    return `{${inner}${parts.join("," + inner)}${outer}}`;
  }
  if (value.length === 0) return "[]";
  const parts = value.map((v) => write(v, indent, depth + 1));
  return `[${inner}${parts.join("," + inner)}${outer}]`;
}

/** Serialize like `json.dumps(value, indent=indent)` in Python (no trailing newline). */
export function pyJsonDumps(value: PyJson, indent = 2): string {
  return write(value, indent, 0);
}
