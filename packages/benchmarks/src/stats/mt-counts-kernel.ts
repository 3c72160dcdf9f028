/**
 * The EpiRec official bootstrap's draws for whole groups (./python-bootstrap.ts documents the draw): per group a fresh
 * CPython `random.Random(seed)` — MT19937 seeded as ./mt19937.ts seeds it, `random()` from two tempered words — drawing
 * `tables` × `samples` resamples of n indices floor(random()·n) in order, tallied as drawCounts tallies them (how often
 * resample b drew item j, at j·samples + b). The same counts as drawCounts(new PyRandom(seed), n, samples) called
 * `tables` times in a row (test/mt-counts-kernel.test.ts). One block is one group; groups are independent, so
 * ./thread-pool.ts draws them on any thread, in any order, with the same bits. Self-contained (the workers run its
 * source text): the caller seeds the generator (MT19937), the kernel carries its own copy of the twist and tempering.
 */

/** Groups to draw from one seed: the seeded generator's state, per group its item count and its count tables, in shared memory. */
export interface GroupCountsJob {
  /** The 624-word state of a freshly seeded MT19937 (`new MT19937(cpythonSeedKey(seed)).mt`); every group starts from a copy. */
  seeded: Uint32Array;
  samples: number;
  /** Count tables per group, drawn one after another from the group's generator (recall@1's, recall@3's, MRR's). */
  tables: number;
  /** Per group: items per resample. */
  n: Int32Array;
  /** Per group g and table t, at g·tables + t: `samples` × n counts, item-major (entry j·samples + b). */
  out: (Uint16Array | Uint32Array)[];
}

/** Draw groups g0 … g1 − 1 of `job` into their count tables. */
export function groupCountsBlock(job: GroupCountsJob, g0: number, g1: number): void {
  const N = 624;
  const M = 397;
  const BLOCK = 32; // resamples tallied together in a small item-major block, then copied per item
  const mt = new Uint32Array(N);
  let next = N; // next state word to temper; N: a twist is due
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
    next = 0;
  };
  /** The next tempered 32-bit output (genrand_int32). */
  const word = (): number => {
    if (next >= N) twist();
    let y = mt[next++]!;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    return (y ^ (y >>> 18)) >>> 0;
  };
  for (let g = g0; g < g1; g++) {
    mt.set(job.seeded);
    next = N;
    const n = job.n[g]!;
    const samples = job.samples;
    const block = n > 0xffff ? new Uint32Array(BLOCK * n) : new Uint16Array(BLOCK * n);
    for (let t = 0; t < job.tables; t++) {
      const counts = job.out[g * job.tables + t]!;
      for (let b0 = 0; b0 < samples; b0 += BLOCK) {
        const width = Math.min(BLOCK, samples - b0);
        block.fill(0);
        for (let r = 0; r < width; r++) {
          for (let d = 0; d < n; d++) {
            const a = word() >>> 5;
            const c = word() >>> 6;
            block[Math.floor(((a * 67108864 + c) / 9007199254740992) * n) * BLOCK + r]!++;
          }
        }
        for (let item = 0; item < n; item++) counts.set(block.subarray(item * BLOCK, item * BLOCK + width), item * samples + b0);
      }
    }
  }
}
