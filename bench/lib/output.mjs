// Output of the bench scripts: markdown tables, the targets with pass/fail, and (with
// `--json FILE`) the same as JSON for bench/report.mjs.
import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { MiB } from "./common.mjs";

export const ratio = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : "–");
export const seconds = (s) => (Number.isFinite(s) ? s.toFixed(3) : "–");
export const mib = (bytes) => (Number.isFinite(bytes) ? `${(bytes / MiB).toFixed(1)} MiB` : "–");
export const count = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "–");
export const throughput = (bytes, s) => (Number.isFinite(s) && s > 0 ? (bytes / MiB / s).toFixed(0) : "–");

/** A markdown table; `align` holds "l" or "r" per column (default: left). */
export function markdownTable(headers, rows, align = []) {
  const cells = [headers, ...rows].map((r) => r.map((c) => String(c ?? "")));
  const widths = headers.map((_, i) => Math.max(3, ...cells.map((r) => r[i].length)));
  const pad = (s, i) => (align[i] === "r" ? s.padStart(widths[i]) : s.padEnd(widths[i]));
  const line = (r) => `| ${r.map(pad).join(" | ")} |`;
  const rule = `| ${widths.map((w, i) => (align[i] === "r" ? `${"-".repeat(w - 1)}:` : "-".repeat(w))).join(" | ")} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join("\n");
}

const FORMATS = { "×": ratio, s: seconds, MiB: mib, faults: count, "µs": (v) => (Number.isFinite(v) ? `${v.toFixed(2)} µs` : "–") };

/**
 * The report of one bench script: context lines, tables, targets, notes. `finish()` prints it
 * as markdown (and writes JSON to `--json FILE`).
 */
export class Report {
  constructor({ script, title, args }) {
    this.script = script;
    this.title = title;
    this.args = args;
    const argv = args.argv.filter((a, i, all) => a !== "--json" && all[i - 1] !== "--json");
    this.command = ["node", `bench/${basename(script)}`, ...argv].join(" ");
    this.context = [];
    this.sections = [];
    this.targets = [];
    this.notes = [];
  }

  /** A line under the title (parameters, machine). */
  line(text) {
    this.context.push(text);
  }

  /** A table with a heading. */
  table(heading, headers, rows, align) {
    this.sections.push({ heading, text: markdownTable(headers, rows, align) });
  }

  /** A note printed after the targets. */
  note(text) {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  /**
   * A target: `value` (undefined when not measured) `op` ("≥" or "≤") `limit`, in `unit`
   * ("×", "MiB" (bytes given), "faults", "µs").
   */
  target({ name, value, op, limit, unit = "×", detail }) {
    const fmt = FORMATS[unit] ?? String;
    const measured = Number.isFinite(value);
    const pass = measured ? (op === "≥" ? value >= limit : value <= limit) : null;
    this.targets.push({
      name,
      value: measured ? value : null,
      op,
      limit,
      unit,
      measuredText: measured ? fmt(value) : "not measured",
      targetText: `${op} ${fmt(limit)}`,
      pass,
      detail,
    });
  }

  /** The report as markdown, its title at heading `level` (2: "##"). */
  markdown(level = 2) {
    const h = "#".repeat(level);
    const out = [`${h} ${this.title}`, ""];
    if (this.context.length) out.push(...this.context.map((l) => `- ${l}`), "");
    out.push(`Command: \`${this.command}\``, "");
    for (const s of this.sections) out.push(`${h}# ${s.heading}`, "", s.text, "");
    if (this.targets.length) {
      out.push(
        `${h}# Targets`,
        "",
        markdownTable(
          ["target", "measured", "target", "result"],
          this.targets.map((t) => [t.name, t.measuredText, t.targetText, verdict(t.pass)]),
          ["l", "r", "r", "l"],
        ),
        "",
      );
    }
    if (this.notes.length) out.push("Notes:", "", ...this.notes.map((n) => `- ${n}`), "");
    return out.join("\n");
  }

  finish() {
    console.log(`\n${this.markdown()}`);
    if (this.args.json) {
      writeFileSync(
        this.args.json,
        JSON.stringify(
          {
            script: this.script,
            title: this.title,
            command: this.command,
            context: this.context,
            targets: this.targets,
            notes: this.notes,
            markdown: this.markdown(3),
          },
          null,
          2,
        ),
      );
    }
  }
}

export const verdict = (pass) => (pass === null ? "not measured" : pass ? "pass" : "**fail**");
