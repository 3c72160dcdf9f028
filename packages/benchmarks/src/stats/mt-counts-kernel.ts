/**
 * The EpiRec official bootstrap's draws for whole groups (./python-bootstrap.ts documents the draw): per group a fresh
 * CPython `random.Random(seed)` — MT19937 seeded by init_by_array(key), `random()` from two tempered words — drawing
 * `tables` × `samples` resamples of n indices floor(random()·n) in order, tallied as drawCounts tallies them (how often
 * resample b drew item j, at j·samples + b). The same counts as drawCounts(new PyRandom(seed), n, samples) called
 * `tables` times in a row (test/mt-counts-kernel.test.ts). One block is one group; groups are independent, so
 * ./thread-pool.ts draws them on any thread, in any order, with the same bits. Self-contained (the workers run its
 * source text), so it carries its own copy of the generator; ./mt19937.ts is the generator the rest of the code reads.
 */

/** Groups to draw: per group its item count, its seed key and its count tables, in shared memory. */
export interface GroupCountsJob {
  samples: number;
  /** Count tables per group, drawn one after another from the group's generator (recall@1's, recall@3's, MRR's). */
  tables: number;
  /** Per group: items per resample. */
  n: Int32Array;
  /** Group g's init_by_array key is key[keyStart[g] … keyStart[g + 1] − 1] (32-bit words of |seed|, low word first). */
  keyStart: Int32Array;
  key: Uint32Array;
  /** Per group g and table t, at g·tables + t: `samples` × n counts, item-major (entry j·samples + b). */
  out: (Uint16Array | Uint32Array)[];
}

/** Draw groups g0 … g1 − 1 of `job` into their count tables. */
export function groupCountsBlock(job: GroupCountsJob, g0: number, g1: number): void {
  const N = 624;
  const M = 397;
  const BLOCK = 32; // resamples tallied together in a small item-major block, then copied per item
  const mt = new Uint32Array(N);
  const twist = (): void => {
    let kk = 0;
    for (; kk < N - M; kk++) {
      const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
      mt[kk] = mt[kk + M]! ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    }
    for (; kk < N - 1; kk++) {
      const y = (mt[kk]! & 0x80000000) | (mt[kk + 1]! & 0x7fffffff);
      mt[kk] = mt[kk + M - N]! ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
    }
    const y = (mt[N - 1]! & 0x80000000) | (mt[0]! & 0x7fffffff);
    mt[N - 1] = mt[M - 1]! ^ (y >>> 1) ^ (-(y & 1) & 0x9908b0df);
  };
  for (let g = g0; g < g1; g++) {
    // init_genrand(19650218), then init_by_array(key)
    mt[0] = 19650218;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1]!;
      mt[i] = (Math.imul(1812433253, prev ^ (prev >>> 30)) + i) >>> 0;
    }
    const k0 = job.keyStart[g]!;
    const keyLength = job.keyStart[g + 1]! - k0;
    let i = 1;
    let j = 0;
    for (let k = Math.max(N, keyLength); k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1664525)) + job.key[k0 + j]! + j) >>> 0;
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
      if (j >= keyLength) j = 0;
    }
    for (let k = N - 1; k > 0; k--) {
      const prev = mt[i - 1]!;
      mt[i] = ((mt[i]! ^ Math.imul(prev ^ (prev >>> 30), 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1]!;
        i = 1;
      }
    }
    mt[0] = 0x80000000;
    let next = N; // next state word to temper; N: a twist is due
    const n = job.n[g]!;
    const samples = job.samples;
    const wide = n > 0xffff;
    const block = wide ? new Uint32Array(BLOCK * n) : new Uint16Array(BLOCK * n);
    for (let t = 0; t < job.tables; t++) {
      const counts = job.out[g * job.tables + t]!;
      for (let b0 = 0; b0 < samples; b0 += BLOCK) {
        const width = Math.min(BLOCK, samples - b0);
        block.fill(0);
        for (let r = 0; r < width; r++) {
          for (let d = 0; d < n; d++) {
            if (next >= N) {
              twist();
              next = 0;
            }
            let a = mt[next++]!;
            a ^= a >>> 11;
            a ^= (a << 7) & 0x9d2c5680;
            a ^= (a << 15) & 0xefc60000;
            a ^= a >>> 18;
            if (next >= N) {
              twist();
              next = 0;
            }
            let c = mt[next++]!;
            c ^= c >>> 11;
            c ^= (c << 7) & 0x9d2c5680;
            c ^= (c << 15) & 0xefc60000;
            c ^= c >>> 18;
            const item = Math.floor((((a >>> 5) * 67108864 + (c >>> 6)) / 9007199254740992) * n);
            block[item * BLOCK + r]!++;
          }
        }
        for (let item = 0; item < n; item++) counts.set(block.subarray(item * BLOCK, item * BLOCK + width), item * samples + b0);
      }
    }
  }
}
