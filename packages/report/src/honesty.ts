/**
 * Honesty guards: the published evaluation states what fusion costs next to what it gains. These
 * checks fail when the README or the report stops stating a cost, when a cost statement leaves its
 * experiment's section, or when the results no longer support the statement as worded.
 */
import { COST_IDS, COST_TOPICS, type Block, type CostId, type Section } from "./content.js";
import { entryValue, statedText, type Manifest } from "./manifest.js";
import { blockMarkdown, extractSection, frontSections, layoutOf, plainText, type MarkdownOptions } from "./markdown.js";

/** One cost statement as the README and the report must state it. */
export interface CostStatement {
  cost: CostId;
  /** Title of the section the statement belongs to. */
  section: string;
  /** The README line (Markdown). */
  markdown: string;
  /** The statement as plain text (what the HTML report shows). */
  text: string;
}

type CostBlock = Extract<Block, { kind: "cost" }>;

function costBlocks(sections: readonly Section[]): Array<{ section: Section; block: CostBlock }> {
  return sections.flatMap((section) =>
    section.blocks.filter((b): b is CostBlock => b.kind === "cost").map((block) => ({ section, block })),
  );
}

/** The cost statements of the experiments present, rendered with manifest values. */
export function costStatements(sections: readonly Section[], m: Manifest, opts: MarkdownOptions): CostStatement[] {
  return costBlocks(sections).map(({ section, block }) => ({
    cost: block.cost,
    section: section.title,
    markdown: blockMarkdown(block, m, opts)[0]!.text,
    text: plainText(block.parts, m),
  }));
}

/** Which cost statements the experiments present must make (all seven when Exp. 3, 5, 6 and 7 and the stronger embedders exist). */
function requiredCosts(sections: readonly Section[]): CostId[] {
  const has = (e: string) => sections.some((s) => s.experiment === e);
  const prefixes = ["exp3", "exp6", "exp7", "embedders"] as const;
  return COST_IDS.filter((c) => has(prefixes.find((p) => c.startsWith(p)) ?? "exp5"));
}

/** Problems with the claims behind the cost statements: a comparison that no longer holds, a missing provenance text. */
export function checkCostClaims(sections: readonly Section[], m: Manifest): string[] {
  const problems: string[] = [];
  const present = new Set(costBlocks(sections).map((c) => c.block.cost));
  for (const c of requiredCosts(sections)) {
    if (!present.has(c)) problems.push(`honesty guard: the report model no longer produces the cost statement "${c}" (${COST_TOPICS[c]})`);
  }
  for (const { block } of costBlocks(sections)) {
    for (const cmp of block.requires) {
      const l = entryValue(m, cmp.left);
      const r = entryValue(m, cmp.right);
      const holds = cmp.op === "<" ? l < r : l > r;
      if (!holds) {
        problems.push(
          `honesty guard: ${COST_TOPICS[block.cost]} no longer holds as stated — ${cmp.left} = ${statedText(m, cmp.left)} is not ${cmp.op === "<" ? "below" : "above"} ` +
            `${cmp.right} = ${statedText(m, cmp.right)}; review the result and the statement before publishing`,
        );
      }
    }
    for (const id of block.requiresText ?? []) {
      if (statedText(m, id).trim() === "")
        problems.push(`honesty guard: ${COST_TOPICS[block.cost]} needs ${id} in the results, but it is empty`);
    }
  }
  return problems;
}

/**
 * Problems with a README (or docs/results.md): each cost statement of the sections its layout shows
 * (all of them in the full layout; Exp. 3, 5 and 6 in the front one) must appear in the generated
 * section, inside its experiment's subsection.
 */
export function checkReadmeHonesty(
  readme: string,
  sections: readonly Section[],
  m: Manifest,
  opts: MarkdownOptions,
  where = "README.md",
): string[] {
  const section = extractSection(readme);
  if (section === undefined)
    return [`honesty guard: ${where} has no generated results section, so it states none of fusion's costs — run \`pnpm report\``];
  const lines = section.split("\n");
  const problems: string[] = [];
  const shown = layoutOf(readme) === "front" ? frontSections(sections) : sections;
  for (const st of costStatements(shown, m, opts)) {
    const at = lines.indexOf(st.markdown);
    if (at < 0) {
      problems.push(
        `honesty guard: ${where} no longer states the ${COST_TOPICS[st.cost]} [${st.cost}]; expected the line:\n    ${st.markdown}`,
      );
      continue;
    }
    let heading = "";
    for (let i = at; i >= 0; i--) {
      if (lines[i]!.startsWith("### ")) {
        heading = lines[i]!.slice(4);
        break;
      }
    }
    if (heading !== st.section)
      problems.push(
        `honesty guard: ${where} states the ${COST_TOPICS[st.cost]} [${st.cost}] under "${heading || "(no heading)"}" instead of next to its gains in "${st.section}"`,
      );
  }
  return problems;
}

/** Text content of an HTML page (tags removed, entities decoded, whitespace collapsed). */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

/** Problems with the HTML report: each required cost statement must appear in its text. */
export function checkHtmlHonesty(
  html: string,
  sections: readonly Section[],
  m: Manifest,
  opts: MarkdownOptions,
  where = "results/report.html",
): string[] {
  const text = htmlText(html);
  return costStatements(sections, m, opts)
    .filter((st) => !text.includes(st.text.replace(/\s+/g, " ")))
    .map((st) => `honesty guard: ${where} no longer states the ${COST_TOPICS[st.cost]} [${st.cost}]; expected the text:\n    ${st.text}`);
}
