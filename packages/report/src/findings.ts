/**
 * "What we found beyond the paper": the README's short list of findings, one sentence each with its
 * number and 95 % CI, each linking to the section of docs/results.md that states it in full. Every
 * number is a manifest entry a section already records, so a finding states exactly what its section
 * states and is checked line by line with the rest of the README; a finding whose values or section
 * are absent from the results is left out.
 */
import type { Inline, Section, SectionId } from "./content.js";
import type { Manifest } from "./manifest.js";

/** One finding: the section it summarises and its sentence (numbers as manifest references). */
export interface Finding {
  section: SectionId;
  parts: Inline[];
}

/** A stated value and its 95 % CI as "v [lo, hi]"; `ci` is the suffix before lo/hi ("ci95." or ""). */
function withCi(id: string, ci = "ci95."): Inline[] {
  return [{ ref: id }, " [", { ref: `${id}.${ci}lo` }, ", ", { ref: `${id}.${ci}hi` }, "]"];
}

/** The findings, in the order the README lists them (before filtering for what the results hold). */
function allFindings(): Finding[] {
  const b5 = (emb: string, slug: string, metric: string) => `beyond.exp5.${emb}.${slug}.${metric}`;
  return [
    {
      section: "beyond",
      parts: [
        "BM25, a textbook lexical ranker, recalls ",
        ...withCi(b5("all-MiniLM-L6-v2", "bm25", "evidence_recall@5")),
        " of LoCoMo's evidence at 5, ",
        ...withCi(b5("all-MiniLM-L6-v2", "bm25", "vs.evidence_recall@5")),
        " more than similarity-only over all-MiniLM-L6-v2, the paper's neural half (paired difference).",
      ],
    },
    {
      section: "beyond",
      parts: [
        "Persode's emotion gate applied to a BM25 + cosine hybrid (gated hybrid, all-MiniLM-L6-v2) reaches LoCoMo evidence recall@5 ",
        ...withCi(b5("all-MiniLM-L6-v2", "gated_hybrid", "evidence_recall@5")),
        ", ",
        ...withCi(b5("all-MiniLM-L6-v2", "gated_hybrid", "vs.evidence_recall@5")),
        " above similarity-only.",
      ],
    },
    {
      section: "beyond",
      parts: [
        "Published memory models rank LoCoMo's evidence below similarity-only: Generative Agents by ",
        ...withCi(b5("hashing", "generative_agents", "vs.evidence_recall@5")),
        " and MemoryBank by ",
        ...withCi(b5("hashing", "memorybank", "vs.evidence_recall@5")),
        " in evidence recall@5 (hashing embedder, paired difference).",
      ],
    },
    {
      section: "exp5-protocols",
      parts: [
        "Protocols, not systems, separate the field's LoCoMo numbers: the same BM25 rankings (hashing run) recall ",
        ...withCi("exp5-protocols.hashing.bm25.persode/original.turn.recall@5"),
        " of the evidence turns at 5 over the paper's question set, yet put an evidence session among the top five sessions for ",
        ...withCi("exp5-protocols.hashing.bm25.all/original.session.any@5"),
        " of all questions, the session-level protocol vendors publish.",
      ],
    },
    {
      section: "embedders",
      parts: [
        "A stronger embedder widens the cost of always-on fusion: with e5-small-v2, similarity-only recalls ",
        ...withCi(b5("e5-small-v2", "similarity-only", "evidence_recall@5")),
        " of LoCoMo's evidence at 5 and fused (Persode) ",
        ...withCi(b5("e5-small-v2", "fused_persode", "evidence_recall@5")),
        ", a paired difference of ",
        ...withCi(b5("e5-small-v2", "fused_persode", "vs.evidence_recall@5")),
        ".",
      ],
    },
    {
      section: "exp5-audit",
      parts: [
        "Scoring LoCoMo against its audited evidence labels (",
        { ref: "exp5-audit.included_with_changed_evidence" },
        " evaluated questions change) moves similarity-only's evidence recall@5 with all-MiniLM-L6-v2 by ",
        { ref: "exp5-audit.all-MiniLM-L6-v2.similarity-only.paired.evidence_recall@5.diff" },
        " [",
        { ref: "exp5-audit.all-MiniLM-L6-v2.similarity-only.paired.evidence_recall@5.ci95.lo" },
        ", ",
        { ref: "exp5-audit.all-MiniLM-L6-v2.similarity-only.paired.evidence_recall@5.ci95.hi" },
        "] (paired, same questions).",
      ],
    },
    {
      section: "exp7",
      parts: [
        "VADER tracks EpiRec's authored intensity bands with Spearman ρ = ",
        ...withCi("exp7.hashing.vader.quality.spearman_band", ""),
        ", the analyzer's own lexicon, which Exp. 1–6 use, with ρ = ",
        ...withCi("exp7.hashing.lexicon.quality.spearman_band", ""),
        ".",
      ],
    },
    {
      section: "exp7",
      parts: [
        "Even the oracle estimator (EpiRec's own labels, an upper bound) does not make always-on fusion pay on reflective probes: " +
          "its recall@3 difference to similarity-only with all-MiniLM-L6-v2 is ",
        ...withCi("exp7.all-MiniLM-L6-v2.oracle/fused.reflective.diff", ""),
        ".",
      ],
    },
  ];
}

function refsOf(parts: readonly Inline[]): string[] {
  return parts.flatMap((p) => (typeof p !== "string" && "ref" in p ? [p.ref] : []));
}

/** The findings the results support: every value they state is in the manifest and their section is present. */
export function findings(m: Manifest, sections: readonly Section[]): Finding[] {
  const ids = new Set([...m.entries.map((e) => e.id), ...m.texts.map((t) => t.id)]);
  const present = new Set(sections.map((s) => s.experiment));
  return allFindings().filter((f) => present.has(f.section) && refsOf(f.parts).every((id) => ids.has(id)));
}

/** GitHub's anchor for a Markdown heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchor(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}
