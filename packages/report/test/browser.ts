/** Opening a report in headless Chromium (Debian package `chromium`) and measuring what it shows. */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

/** Where Debian installs Chromium. */
const CHROMIUM = "/usr/bin/chromium";

/** What the browser saw. */
export interface BrowserReport {
  consoleErrors: string[];
  requests: string[];
  figures: Array<{ id: string; width: number; height: number }>;
  costTexts: string[];
  /** Tables and figures wider than the room they have (they would scroll sideways), as "caption or id: width > room". */
  overflowing: string[];
}

/** Open `htmlPath` from file://, collect console errors and non-file requests, measure every figure, save a full-page screenshot. */
export async function inspectReport(htmlPath: string, screenshotPath: string): Promise<BrowserReport> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: the report's browser test needs Chromium — run \`apt-get install -y chromium\``);
  const profile = mkdtempSync(join(tmpdir(), "persode-chromium-"));
  // a fresh profile directory every time (playwright passes it to Chromium as --user-data-dir)
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 900 }, // the width the report is checked at (issue 10)
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (err) => consoleErrors.push(String(err)));
    page.on("request", (req) => {
      if (!req.url().startsWith("file:")) requests.push(req.url());
    });
    await page.goto(pathToFileURL(htmlPath).href, { waitUntil: "load" });
    const figures = await page.$$eval("figure.figure", (els) =>
      els.map((el) => {
        const svg = el.querySelector("svg");
        const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
        return { id: el.getAttribute("data-figure") ?? "", width: box.width, height: box.height };
      }),
    );
    const costTexts = await page.$$eval("p.cost", (els) => els.map((el) => (el.textContent ?? "").replace(/\s+/g, " ")));
    const overflowing = await page.$$eval(".table-wrap, .plot", (els) =>
      els
        .filter((el) => el.scrollWidth > el.clientWidth + 1)
        .map(
          (el) =>
            `${el.querySelector("caption")?.textContent ?? el.closest("figure")?.getAttribute("data-figure") ?? el.className}: ${el.scrollWidth} > ${el.clientWidth}`,
        ),
    );
    mkdirSync(dirname(screenshotPath), { recursive: true });
    await page.screenshot({ path: screenshotPath, fullPage: true });
    return { consoleErrors, requests, figures, costTexts, overflowing };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
