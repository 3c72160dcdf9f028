/**
 * Datasets as declarations (docs/spec.md §8): one value per dataset — id, title, citation, licence and
 * redistribution rule, its pinned source files (size and sha256 each), how to load and summarise it, its
 * question sets and the experiments that use it. `pnpm --filter @persode/datasets data fetch|check` and the provenance table of
 * packages/datasets/README.md are derived from this registry; adding a dataset is one entry here, its loader
 * with a test, and docs.
 */
import { corpusCounts } from "./corpus.js";
import { EMOBANK_SPLITS, loadEmoBank } from "./emobank.js";
import { loadEpiRec } from "./epirec.js";
import { loadLocomo } from "./locomo.js";
import { loadLocomoAudit } from "./locomo-audit.js";
import { loadLongMemEval } from "./longmemeval.js";
import { EMOBANK, EPIREC, LOCOMO, LOCOMO_AUDIT, LONGMEMEVAL_ORACLE, LONGMEMEVAL_S, type PinnedDataset } from "./pinned.js";
import type { ResolveOptions } from "./resolve.js";

/** One named subset of a dataset's questions that an experiment scores. */
export interface QuestionSet {
  id: string;
  description: string;
}

/** A dataset, declared once. */
export interface DatasetDeclaration {
  /** Registry key, e.g. "locomo". */
  id: string;
  /** Full title with its citation key, e.g. "LoCoMo (Maharana et al., ACL 2024)". */
  title: string;
  citation: string;
  license: string;
  /** What may be done with the files: the rule this repository follows. */
  redistribution: string;
  /** Its pinned files (each with URL, sha256 and, where pinned, size). */
  sources: readonly PinnedDataset[];
  /** "all": needed by `pnpm bench all` and expected in the mirror; "optional": fetched on demand (`data fetch <group>`). */
  group: "all" | "longmemeval";
  questionSets: readonly QuestionSet[];
  /** Experiment ids that read it. */
  experiments: readonly string[];
  /** Resolve (verifying every source) and parse it; returns one line of counts for `data fetch|check`. */
  summarize(opts: ResolveOptions): Promise<string>;
}

/** Every dataset, in the order `data fetch` resolves them. */
export const DATASETS: readonly DatasetDeclaration[] = Object.freeze([
  {
    id: "locomo",
    title: "LoCoMo (Maharana et al., ACL 2024)",
    citation: LOCOMO.citation,
    license: LOCOMO.license,
    redistribution: "non-commercial; downloaded on demand, never committed or redistributed",
    sources: [LOCOMO],
    group: "all",
    questionSets: [{ id: "persode", description: "categories 1–4 with at least one resolvable evidence id (1,535 questions)" }],
    experiments: ["exp5", "exp7"],
    async summarize(opts) {
      const d = await loadLocomo(opts);
      const turns = d.conversations.reduce((n, c) => n + c.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
      return `${d.conversations.length} conversations, ${turns} turns, ${d.conversations.reduce((n, c) => n + c.qa.length, 0)} QA`;
    },
  },
  {
    id: "epirec",
    title: "EpiRec v1.0 (Jin, 2026)",
    citation: EPIREC.citation,
    license: EPIREC.license,
    redistribution: "frozen release; cite it when publishing results",
    sources: [EPIREC],
    group: "all",
    questionSets: [{ id: "all", description: "every probe (504: factual, reflective explicit, reflective implicit)" }],
    experiments: ["exp6", "exp7"],
    async summarize(opts) {
      const c = corpusCounts(await loadEpiRec(opts));
      return `${c.personas} personas, ${c.episodes} episodes, ${c.probes} probes`;
    },
  },
  {
    id: "locomo-audit",
    title: "LoCoMo gold-label audit (dial481/locomo-audit)",
    citation: LOCOMO_AUDIT.citation,
    license: LOCOMO_AUDIT.license,
    redistribution: "non-commercial; downloaded on demand, never committed or redistributed; read only together with LoCoMo",
    sources: [LOCOMO_AUDIT],
    group: "all",
    questionSets: [{ id: "audited", description: "the Exp. 5 questions with the audited evidence" }],
    experiments: ["exp5"],
    async summarize(opts) {
      const audit = await loadLocomoAudit(await loadLocomo(opts), opts);
      const asSet = (xs: readonly string[]) => [...new Set(xs)].sort().join("\u0000");
      const changed = audit.entries.filter((e) => asSet(e.correctEvidence) !== asSet(e.citedEvidence)).length;
      return `${audit.entries.length} audited questions, ${changed} with changed evidence (checked against LoCoMo)`;
    },
  },
  {
    id: "emobank",
    title: "EmoBank (Buechel & Hahn, EACL 2017)",
    citation: EMOBANK.citation,
    license: EMOBANK.license,
    redistribution: "share-alike: what is derived from it (Exp. 7's fitted weights) is CC BY-SA 4.0 too",
    sources: [EMOBANK],
    group: "all",
    questionSets: [{ id: "splits", description: "train / dev / test sentences with valence, arousal, dominance" }],
    experiments: ["exp7"],
    async summarize(opts) {
      const e = await loadEmoBank(opts);
      return `${e.sentences.length} sentences (${EMOBANK_SPLITS.map((sp) => `${e.sentences.filter((x) => x.split === sp).length} ${sp}`).join(", ")})`;
    },
  },
  {
    id: "longmemeval-s",
    title: "LongMemEval_S (Wu et al., ICLR 2025)",
    citation: LONGMEMEVAL_S.citation,
    license: LONGMEMEVAL_S.license,
    redistribution: "MIT; not in the mirror, fetched from the hub on demand, never committed",
    sources: [LONGMEMEVAL_S],
    group: "longmemeval",
    questionSets: [
      { id: "official", description: "the official averages: every question but _abs ones and those without a user has_answer turn" },
      { id: "persode", description: "every question with a has_answer turn, _abs excluded" },
    ],
    experiments: ["exp8"],
    async summarize(opts) {
      return longMemEvalSummary(await loadLongMemEval({ ...opts, pinned: LONGMEMEVAL_S }));
    },
  },
  {
    id: "longmemeval-oracle",
    title: "LongMemEval oracle (Wu et al., ICLR 2025)",
    citation: LONGMEMEVAL_ORACLE.citation,
    license: LONGMEMEVAL_ORACLE.license,
    redistribution: "MIT; not in the mirror, fetched from the hub on demand, never committed",
    sources: [LONGMEMEVAL_ORACLE],
    group: "longmemeval",
    questionSets: [{ id: "official", description: "as LongMemEval_S, over the evidence sessions only" }],
    experiments: ["exp8"],
    async summarize(opts) {
      return longMemEvalSummary(await loadLongMemEval({ ...opts, pinned: LONGMEMEVAL_ORACLE }));
    },
  },
] satisfies DatasetDeclaration[]);

function longMemEvalSummary(d: Awaited<ReturnType<typeof loadLongMemEval>>): string {
  const turns = d.questions.reduce((n, q) => n + q.sessions.reduce((m, s) => m + s.turns.length, 0), 0);
  return `${d.questions.length} questions, ${turns} turns; quirks ${JSON.stringify(d.quirks)}`;
}

/** The declaration of a dataset by id. */
export function findDataset(id: string): DatasetDeclaration | undefined {
  return DATASETS.find((d) => d.id === id);
}

/** "owner/repo@commit7 `path`" for a commit-addressed GitHub raw URL, "hub owner/name@rev7 `file`" for a hub URL. */
export function sourceLabel(ds: PinnedDataset): string {
  const gh = /^https:\/\/raw\.githubusercontent\.com\/([^/]+\/[^/]+)\/([0-9a-f]{40})\/(.+)$/.exec(ds.url);
  if (gh) return `\`${gh[1]}@${gh[2]!.slice(0, 7)}\` \`${gh[3]}\``;
  const hub = /^https:\/\/huggingface\.co\/datasets\/([^/]+\/[^/]+)\/resolve\/([0-9a-f]{40})\/(.+)$/.exec(ds.url);
  if (hub) return `hub \`${hub[1]}@${hub[2]!.slice(0, 7)}\` \`${hub[3]}\``;
  return `\`${ds.url}\``;
}

/** The provenance table of packages/datasets/README.md, derived from the registry (a test keeps the README equal to it). */
export function datasetsTable(): string {
  const rows = DATASETS.flatMap((d) =>
    d.sources.map((s) => {
      const size = s.size !== undefined ? ` (${s.size.toLocaleString("en-US")} bytes)` : "";
      return `| ${d.title} | \`${s.fileName}\`${size} | ${d.license} | ${d.redistribution} | ${sourceLabel(s)} | \`${s.sha256.slice(0, 8)}…${s.sha256.slice(-8)}\` | ${d.experiments.join(", ")} |`;
    }),
  );
  return [
    "| dataset | file | licence | redistribution | pinned source | sha256 | used by |",
    "|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
