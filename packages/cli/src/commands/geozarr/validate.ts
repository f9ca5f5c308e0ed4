/** `zarr geozarr validate`: the GeoZarr rules over a hierarchy, for people and programs. */
import { type Finding, listRules, RULES, type RuleId, type Severity, type ValidationReport, validateHierarchy } from "@zarr/geozarr";
import { type JsonObject, stringifyJson, ZarrError } from "@zarr/spec";
import type { CliIO } from "../../cli-io.js";
import { printable } from "../../printable.js";
import { readLimits } from "../../read-limits.js";
import { expectPositionals, parseCommandArgs, USAGE, UsageError } from "../../usage.js";
import { loadForReading } from "./shared.js";

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function findingLine(f: Finding): string {
  const where = `${f.path || "/"}${f.pointer === "" ? "" : ` ${f.pointer}`}`;
  return `${f.severity.padEnd(7)} ${f.rule}  ${where}\n        ${f.message} [mini-spec: ${f.section}]`;
}

/** `--strict`: every rule whose default is a warning becomes an error. */
function strictSeverities(): Partial<Record<RuleId, Severity>> {
  const out: Partial<Record<RuleId, Severity>> = {};
  for (const id of Object.keys(RULES) as RuleId[]) if (RULES[id][0] === "warning") out[id] = "error";
  return out;
}

/** The one-line verdict with the counts, for people (last line) and programs (`summary`). */
export function summaryLine(report: ValidationReport, strict: boolean): string {
  return (
    `${report.valid ? "valid" : "NOT valid"}: ${report.counts.error} error(s), ${report.counts.warning} warning(s), ${report.counts.info} info; ` +
    `${report.datasets.length} Dataset(s), ${report.multiscales.length} Multiscale Dataset(s)${strict ? " (--strict: warnings count as errors)" : ""}`
  );
}

/** A finding for `--json`, its fields in a fixed order. */
function findingJson(f: Finding): JsonObject {
  return { rule: f.rule, severity: f.severity, path: f.path, pointer: f.pointer, message: f.message, section: f.section };
}

/**
 * Runs `zarr geozarr validate STORE [PATH]`: findings (rule, severity, node path, JSON
 * pointer, message, mini-spec section) and a summary line; `--json` for programs. Exits 0
 * when valid, 1 when there are errors (a ZarrError), 2 on a usage error; `--strict` makes
 * warnings errors.
 */
export async function validateCommand(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseCommandArgs("geozarr", args, {
    json: { type: "boolean" },
    rules: { type: "boolean" },
    strict: { type: "boolean" },
    "min-severity": { type: "string" },
    tolerance: { type: "string" },
  });
  if (values.help) {
    await io.write(`${USAGE.geozarr}\n`);
    return;
  }
  if (values.rules) {
    const rules = listRules();
    if (values.json) await io.write(`${stringifyJson(rules as unknown as JsonObject[], 2)}\n`);
    else await io.write(`${rules.map((r) => `${r.severity.padEnd(7)} ${r.id.padEnd(36)} ${r.summary} [${r.section}]`).join("\n")}\n`);
    return;
  }
  expectPositionals("geozarr", positionals, 1, 2);
  const min = (values["min-severity"] ?? "info") as Severity;
  if (!Object.hasOwn(SEVERITY_ORDER, min)) throw new UsageError(`--min-severity is error, warning or info, not "${min}"`, "geozarr");
  const tolerance = values.tolerance === undefined ? undefined : Number(values.tolerance);
  if (tolerance !== undefined && !(tolerance > 0)) throw new UsageError(`--tolerance is a positive number, not "${values.tolerance}"`, "geozarr");
  const strict = values.strict === true;
  const h = await loadForReading(positionals[0], positionals[1], values.header, readLimits("geozarr", values));
  const report = validateHierarchy(h, { tolerance, severities: strict ? strictSeverities() : undefined });
  const shown = report.findings.filter((f) => SEVERITY_ORDER[f.severity] <= SEVERITY_ORDER[min]);
  if (values.json) {
    const out: JsonObject = {
      valid: report.valid,
      strict,
      counts: report.counts,
      summary: summaryLine(report, strict),
      findings: shown.map(findingJson),
      datasets: report.datasets,
      multiscales: report.multiscales,
    };
    await io.write(`${stringifyJson(out, 2)}\n`);
  } else {
    const byRule = new Map<string, number>();
    for (const f of shown) byRule.set(`${f.severity} ${f.rule}`, (byRule.get(`${f.severity} ${f.rule}`) ?? 0) + 1);
    const lines = shown.map(findingLine);
    lines.push("");
    if (byRule.size > 0) {
      lines.push("by rule:");
      for (const [k, n] of [...byRule].sort()) lines.push(`  ${String(n).padStart(5)}  ${k}`);
    }
    lines.push(summaryLine(report, strict));
    await io.write(`${lines.map(printable).join("\n")}\n`);
  }
  if (!report.valid) throw new ZarrError("METADATA_INVALID", `${report.counts.error} GeoZarr error(s) found${strict ? " (--strict)" : ""}`);
}
