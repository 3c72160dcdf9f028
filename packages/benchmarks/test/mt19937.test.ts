// Exactness of the statistics behind the EpiRec official report. Expected values are
// external vectors produced by CPython 3 (`random`, `statistics.mean`), pasted as literals.
import { describe, expect, it } from "vitest";
import { MT19937, PyRandom, cpythonSeedKey } from "../src/index.js";

describe("PyRandom (CPython random.Random)", () => {
  it("matches random.Random(20260713).random() for the first outputs", () => {
    // python3 -c "import random; r=random.Random(20260713); print([r.random() for _ in range(3)])"
    const r = new PyRandom(20260713);
    expect([r.random(), r.random(), r.random()]).toEqual([0.2891804149064596, 0.8966127972629223, 0.6331646500132186]);
  });

  it("matches the 1000th output (crosses a state twist)", () => {
    const r = new PyRandom(20260713);
    let x = 0;
    for (let i = 0; i < 1000; i++) x = r.random();
    expect(x).toBe(0.07307096370516553);
  });

  it("seeds 0 and seeds above 2^32 like CPython (multi-word init_by_array key)", () => {
    expect(new PyRandom(0).random()).toBe(0.8444218515250481);
    expect(cpythonSeedKey(2 ** 32 + 5)).toEqual([5, 1]);
    expect(new PyRandom(2 ** 32 + 5).random()).toBe(0.15727238718789782);
    expect(new PyRandom(-7).random()).toBe(new PyRandom(7).random());
  });

  it("draws indices like random.choices (floor(random() * n))", () => {
    // [int(r.random()*504) for _ in range(5)] and r.choices(range(168), k=6)
    const r = new PyRandom(20260713);
    expect([0, 1, 2, 3, 4].map(() => r.draw(504))).toEqual([145, 451, 319, 33, 342]);
    const out = new Uint32Array(6);
    new PyRandom(20260713).fillDraws(out, 168);
    expect([...out]).toEqual([48, 150, 106, 11, 114, 41]);
  });

  it("bulk draws continue the same stream as single draws", () => {
    const a = new PyRandom(99);
    const b = new PyRandom(99);
    const bulk = new Uint32Array(1500); // > 624 words: crosses twists inside the bulk path
    a.fillDraws(bulk, 1000);
    const single = Array.from({ length: 1500 }, () => b.draw(1000));
    expect([...bulk]).toEqual(single);
    expect(a.random()).toBe(b.random());
  });

  it("MT19937 rejects bad seed keys", () => {
    expect(() => new MT19937([])).toThrow(/at least one/);
    expect(() => new MT19937([2 ** 32])).toThrow(/\[0, 2\^32\)/);
    expect(() => new PyRandom(0.5)).toThrow(/safe integer/);
  });
});
