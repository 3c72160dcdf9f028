/**
 * The path syntax the regression manifest uses to point at one value inside a results file.
 *
 * A path is a sequence of segments written left to right:
 * - a bare segment `name` (letters, digits, `_`, not starting with a digit), preceded by `.`
 *   unless it is the first segment;
 * - a quoted segment `["any key"]` for every other object key, the key written as a JSON string
 *   (so `"`, `\` and control characters are escaped exactly as JSON does);
 * - an index segment `[3]` for an array element.
 * Example: `runs.hashing.strategies["fused (Persode)"]["evidence_recall@5"]`.
 * `formatPath` always produces this canonical form, so a path has exactly one spelling.
 */

/** One step of a path: an object key or an array index. */
export type PathSegment = string | number;

const BARE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Write segments in the canonical path syntax (see module doc). */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = "";
  for (const seg of segments) {
    if (typeof seg === "number") {
      if (!Number.isInteger(seg) || seg < 0) throw new RangeError(`formatPath: array index must be a non-negative integer, got ${seg}`);
      out += `[${seg}]`;
    } else if (BARE.test(seg)) {
      out += out === "" ? seg : `.${seg}`;
    } else {
      out += `[${JSON.stringify(seg)}]`;
    }
  }
  if (out === "") throw new RangeError("formatPath: a path needs at least one segment");
  return out;
}

/** Parse a path written in the canonical syntax; throws naming the offending column on bad input. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new SyntaxError(`bad manifest path ${JSON.stringify(path)} at column ${i + 1}: ${why}`);
  };
  while (i < path.length) {
    const ch = path[i];
    if (ch === "[") {
      if (path[i + 1] === '"') {
        // a JSON string runs to the first unescaped quote
        let j = i + 2;
        while (j < path.length && path[j] !== '"') j += path[j] === "\\" ? 2 : 1;
        if (j >= path.length) fail("unterminated quoted key");
        if (path[j + 1] !== "]") fail('expected "]" after quoted key');
        let key: unknown;
        try {
          key = JSON.parse(path.slice(i + 1, j + 1));
        } catch {
          fail("quoted key is not a valid JSON string");
        }
        segments.push(key as string);
        i = j + 2;
      } else {
        const m = /^\[(0|[1-9][0-9]*)\]/.exec(path.slice(i));
        if (!m) fail('expected an array index like [0] or a quoted key like ["a b"]');
        segments.push(Number(m![1]));
        i += m![0].length;
      }
    } else {
      if (segments.length > 0) {
        if (ch !== ".") fail('expected ".", "[" or the end of the path');
        i += 1;
      }
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(path.slice(i));
      if (!m) fail('expected a bare key (letters, digits, "_"); quote other keys as ["key"]');
      segments.push(m![0]);
      i += m![0].length;
    }
  }
  if (segments.length === 0) fail("empty path");
  return segments;
}

/** Follow a path into parsed JSON; returns undefined when any step is missing. */
export function resolvePath(root: unknown, segments: readonly PathSegment[]): unknown {
  let node: unknown = root;
  for (const seg of segments) {
    if (typeof seg === "number") {
      if (!Array.isArray(node) || seg >= node.length) return undefined;
      node = node[seg];
    } else {
      if (node === null || typeof node !== "object" || Array.isArray(node) || !Object.prototype.hasOwnProperty.call(node, seg)) return undefined;
      node = (node as Record<string, unknown>)[seg];
    }
  }
  return node;
}
