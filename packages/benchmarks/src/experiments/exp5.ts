import { createHash } from "node:crypto";
import { join } from "node:path";
import { LOCOMO, LOCOMO_AUDIT, loadLocomoAudit } from "@persode/datasets";
import {
  EXTENDED_FILES,
  RESULT_FILES,
  formatResultJson,
  rankingsDir,
  rankingsStem,
  type AuditedFile,
  type ProtocolsFile,
  PUBLISHED_CLAIMS,
} from "@persode/results";
import {
  declaredProvenance,
  describeEmbedder,
  meta,
  mergeRuns,
  mergeablePrevious,
  fileExists,
  readPrevious,
  runsAfter,
  strategyRecordsOfRuns,
  writeAtomic,
  writeAtomicAll,
  writeResult,
} from "../result-records.js";
import type { ExperimentRunnerModule } from "./experiment.js";
import { RUNNER_FACTS } from "./catalog.js";
import { AuditScorer, EXP5_AUDIT_PROTOCOL, auditedGold, topKGuard } from "./exp5-audit.js";
import { EXP5_PROTOCOL, runExp5 } from "./exp5-locomo.js";
import { writeExtendedFile } from "../extended-results.js";
import { LadderScorer, auditColumnsFromLadder, combineHooks, questionKey } from "../locomo-protocols.js";
import { LADDER_MEASURES, LOCOMO_QUESTION_SETS } from "../protocols.js";
import { prefetchResamples } from "../stats/bootstrap.js";
import { RANKINGS_MANIFEST, rankingsManifest, type RankingsFileRecord } from "../rankings-manifest.js";
import { prepareRankWorker } from "../rank-worker.js";

/** The protocol block of the ladder file (docs/spec.md §11). */
export const EXP5_PROTOCOLS_PROTOCOL = {
  note: "the same rankings as Exp. 5 (every strategy of the extended set), scored under every protocol: granularity × measure × k × question set × gold",
  definitions: "docs/spec.md §11",
  measures: LADDER_MEASURES.map((m) => m.name),
  granularity: {
    turn: "the ranked turns",
    session: "sessions ranked by their best-ranked turn; gold sessions = the sessions holding a gold turn",
  },
  question_sets: Object.fromEntries(Object.entries(LOCOMO_QUESTION_SETS).map(([k, v]) => [k, v.note])),
  golds: { original: "the dataset's evidence", audited: "the label audit's corrected evidence (exp5_locomo_audited.json's rules)" },
  claims: "published numbers with the protocol each was measured under; a claim is reproduced only where it names a ladder protocol",
} as const;

export const exp5: ExperimentRunnerModule = {
  ...RUNNER_FACTS.exp5,
  async run(ctx) {
    // the ranking's second core loads its modules while the data loads and the texts are embedded
    prepareRankWorker();
    const data = await ctx.locomo();
    // The audit is checked against LoCoMo before anything runs, so a bad audit file writes nothing.
    const audit = await loadLocomoAudit(data);
    const gold = auditedGold(data, audit);
    // The protocol ladder observes the same rankings; the questions only it needs (beyond both golds') are ranked as
    // extra ones.
    const ladder = new LadderScorer(data, audit, new Set([...gold.original, ...gold.audited].map(questionKey)));
    // The audited file's metrics on both golds are the ladder's turn measures on its `persode` families: the audit
    // takes them from the ladder rather than score every ranking again, and asks only for its audited-only questions.
    const scorer = new AuditScorer(gold, undefined, auditColumnsFromLadder(ladder, gold));
    const embedder = await ctx.embedder();
    // The summaries' largest resample streams are drawn on the worker threads while the strategies rank.
    prefetchResamples(
      [
        ...scorer.resampleRequests(`exp5-audit/${embedder.name}`, `exp5/${embedder.name}`),
        ...ladder.resampleRequests(`exp5-protocols/${embedder.name}`),
      ],
      { seed: ctx.seed, samples: ctx.samples },
    );
    const spec = { seed: ctx.seed, samples: ctx.samples };
    const guard = topKGuard(data, EXP5_PROTOCOL.top_ks);
    // Once ranked, the audited and ladder files' bootstrap jobs start on the thread pool, so its workers compute them
    // while this thread computes Exp. 5's own; their results objects are built (waiting for the jobs) when written.
    // The original gold's CIs come from Exp. 5's own resamples (its label), so both files state the same intervals.
    const startAudited = () => scorer.startSummary(spec, `exp5-audit/${embedder.name}`, guard, `exp5/${embedder.name}`);
    const startLadder = () => ladder.startSummary(spec, `exp5-protocols/${embedder.name}`);
    let started: { audited: () => Record<string, unknown>; ladder: () => Record<string, unknown> } | undefined;
    const hooks = combineHooks(scorer.hooks, {
      ...ladder.hooks,
      afterRanking: () => void (started = { audited: startAudited(), ladder: startLadder() }),
    });
    const r = await runExp5(data, embedder, spec, hooks, { rankingsDepth: ctx.rankingsDepth });
    started ??= { audited: startAudited(), ladder: startLadder() };
    const audited = started.audited();
    // The original-gold file gains the guard only when it fires, so unflagged runs stay byte-identical.
    const run = guard.flagged ? { ...r.run, top_k_guard: guard } : r.run;
    const file = RESULT_FILES.exp5;
    const path = join(ctx.out, file);
    const auditFile = RESULT_FILES["exp5-audit"];
    const auditPath = join(ctx.out, auditFile);
    const previousAudit = mergeablePrevious(await readPrevious(auditPath), data.sha256, ctx);
    const sameAudit = (previousAudit?.benchmark as { audit?: { data_sha256?: unknown } } | undefined)?.audit?.data_sha256 === audit.sha256;
    const keptAudit = sameAudit ? previousAudit : undefined;
    const auditRuns = mergeRuns(keptAudit, ctx.runKey, { embedder: describeEmbedder(embedder), ...audited }) as AuditedFile["runs"];
    const auditRecords = strategyRecordsOfRuns(auditRuns, keptAudit);
    const files = ctx.paperFormat ? [file, auditFile] : [auditFile];
    // Every strategy's rankings file, then the folder's manifest: depth, embedder, data, and each file's counts and sha256.
    const dir = rankingsDir("exp5");
    const names = r.rankings.map(({ strategy }) => `${rankingsStem(ctx.runKey, strategy.slug)}.jsonl`);
    const records: RankingsFileRecord[] = [];
    // the files' sha256s are computed while their writes are under way
    await writeAtomicAll(
      r.rankings.map(({ jsonl }, i) => [join(ctx.out, dir, names[i]!), jsonl] as const),
      () =>
        r.rankings.forEach(({ strategy, jsonl, lines, idsPerLine }, i) =>
          records.push({
            file: names[i]!,
            strategy: strategy.key,
            slug: strategy.slug,
            lines,
            turns_per_line: idsPerLine,
            bytes: jsonl.length,
            sha256: createHash("sha256").update(jsonl).digest("hex"),
          }),
        ),
    );
    files.push(...names.map((name) => join(dir, name)));
    const turns = data.conversations.map((c) => c.sessions.reduce((a, s) => a + s.turns.length, 0));
    const manifestPath = join(ctx.out, dir, RANKINGS_MANIFEST);
    const manifest = rankingsManifest(
      await readPrevious(manifestPath),
      ctx.runKey,
      {
        embedder: describeEmbedder(embedder),
        data_sha256: data.sha256,
        generated_by: `pnpm bench ${ctx.target}`,
        depth: r.rankingsDepth,
        questions: r.questions,
        turns_per_conversation: { min: Math.min(...turns), max: Math.max(...turns) },
        files: records,
      },
      (f) => fileExists(join(ctx.out, dir, f)),
    );
    await writeAtomic(manifestPath, formatResultJson(manifest));
    files.push(join(dir, RANKINGS_MANIFEST));
    if (ctx.paperFormat) {
      const { runs, strategies: records } = await runsAfter(path, data.sha256, ctx, ctx.runKey, embedder, run);
      await writeResult(path, "exp5", {
        benchmark: {
          name: "LoCoMo (Maharana et al., ACL 2024)",
          url: "https://github.com/snap-research/locomo",
          license: LOCOMO.license,
          data_sha256: data.sha256,
        },
        protocol: EXP5_PROTOCOL,
        bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "question", method: "percentile" },
        runs,
        meta: meta(ctx.seed, Object.keys(runs), ctx.target, data.sha256, {
          datasets: declaredProvenance("exp5", { locomo: data.sha256 }),
          strategies: records,
        }),
      });
    }
    await writeResult(auditPath, "exp5-audit", {
      benchmark: {
        name: "LoCoMo (Maharana et al., ACL 2024) with audited evidence",
        url: "https://github.com/snap-research/locomo",
        license: LOCOMO.license,
        data_sha256: data.sha256,
        audit: {
          name: "LoCoMo gold-label audit (dial481/locomo-audit, errors.json)",
          url: LOCOMO_AUDIT.url,
          license: LOCOMO_AUDIT.license,
          provenance: "produced by a language model with human review: a second label set, not ground truth",
          data_sha256: audit.sha256,
        },
      },
      protocol: { ...EXP5_PROTOCOL, audited_gold: EXP5_AUDIT_PROTOCOL },
      bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "question", method: "percentile" },
      runs: auditRuns,
      meta: meta(ctx.seed, Object.keys(auditRuns), ctx.target, data.sha256, {
        audit_sha256: audit.sha256,
        datasets: declaredProvenance("exp5-audit", { locomo: data.sha256, "locomo-audit": audit.sha256 }),
        strategies: auditRecords,
      }),
    });
    const protocolsFile = RESULT_FILES["exp5-protocols"];
    const protocolsPath = join(ctx.out, protocolsFile);
    const previousProtocols = mergeablePrevious(await readPrevious(protocolsPath), data.sha256, ctx);
    const keptProtocols =
      (previousProtocols?.benchmark as { audit_sha256?: unknown } | undefined)?.audit_sha256 === audit.sha256
        ? previousProtocols
        : undefined;
    const protocolRuns = mergeRuns(keptProtocols, ctx.runKey, {
      embedder: describeEmbedder(embedder),
      ...started.ladder(),
    }) as ProtocolsFile["runs"];
    await writeResult(protocolsPath, "exp5-protocols", {
      benchmark: {
        name: "LoCoMo (Maharana et al., ACL 2024) under every protocol",
        url: "https://github.com/snap-research/locomo",
        license: LOCOMO.license,
        data_sha256: data.sha256,
        audit_sha256: audit.sha256,
      },
      protocol: EXP5_PROTOCOLS_PROTOCOL,
      bootstrap: { samples: ctx.samples, seed: ctx.seed, unit: "question", method: "percentile" },
      claims: [...PUBLISHED_CLAIMS],
      runs: protocolRuns,
      meta: meta(ctx.seed, Object.keys(protocolRuns), ctx.target, data.sha256, {
        audit_sha256: audit.sha256,
        datasets: declaredProvenance("exp5-protocols", { locomo: data.sha256, "locomo-audit": audit.sha256 }),
        strategies: strategyRecordsOfRuns(protocolRuns, keptProtocols),
      }),
    });
    files.push(protocolsFile);
    const strategies = r.run.strategies as Record<string, Record<string, number>>;
    const auditedStrategies = audited.strategies as Record<
      string,
      { audited_minus_original: Record<string, { original: number; audited: number; diff: number }> }
    >;
    const extFile = EXTENDED_FILES.exp5;
    await writeExtendedFile({
      out: ctx.out,
      file: extFile,
      paperFile: file,
      benchmark: {
        name: "LoCoMo (Maharana et al., ACL 2024)",
        url: "https://github.com/snap-research/locomo",
        license: LOCOMO.license,
        data_sha256: data.sha256,
      },
      protocol: { paper_protocol: EXP5_PROTOCOL },
      unit: "question",
      seed: ctx.seed,
      samples: ctx.samples,
      target: ctx.target,
      dataSha256: data.sha256,
      datasets: declaredProvenance("exp5", { locomo: data.sha256 }),
      runKey: ctx.runKey,
      embedder,
      run: r.extended,
    });
    files.push(extFile);
    const extended = r.extended.strategies as Record<string, Record<string, number>>;
    return {
      files,
      summary: [
        ...Object.entries(ctx.paperFormat ? strategies : {}).map(([k, v]): [string, string] => [
          `${k} [${ctx.runKey}]`,
          `recall@5 ${v["evidence_recall@5"]} · recall@10 ${v["evidence_recall@10"]} · MRR ${v.mrr}`,
        ]),
        ...Object.entries(auditedStrategies).map(([k, v]): [string, string] => {
          const d = v.audited_minus_original["evidence_recall@5"]!;
          return [
            `${k} [${ctx.runKey}, audited gold]`,
            `recall@5 ${d.audited} against ${d.original} on the original gold (same questions; difference ${d.diff})`,
          ];
        }),
        ...Object.entries(extended)
          .filter(([k]) => !(ctx.paperFormat && k in strategies))
          .map(([k, v]): [string, string] => [
            `${k} [${ctx.runKey}, extended]`,
            `recall@5 ${v["evidence_recall@5"]} · recall@10 ${v["evidence_recall@10"]} · MRR ${v.mrr}`,
          ]),
      ],
      counters: { questions: r.questions, rankings: r.questions * Object.keys(extended).length, ranked_memories: r.rankedMemories },
    };
  },
};
