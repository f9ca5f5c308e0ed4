import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { havePythonModules, requirePeer } from "../../../scripts/test-env.mjs";
import { renderTemplate } from "../src/index.js";

describe("renderTemplate", () => {
  it("renders names and integer arithmetic as kerchunk's gen entries use them", () => {
    expect(renderTemplate("data/{{ i }}.{{j}}", { i: 2, j: 0 })).toBe("data/2.0");
    expect(renderTemplate("{{ 8 + i * 4096 }}", { i: 3 })).toBe("12296");
    expect(renderTemplate("{{u}}", { u: "s3://bucket/file.nc" })).toBe("s3://bucket/file.nc");
    expect(renderTemplate("no templates", {})).toBe("no templates");
    expect(renderTemplate("{{ -7 // 2 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 7 / 2 }} {{ 4 / 2 }}", {})).toBe("-4 2 1024 3.5 2.0");
  });

  it("refuses what it does not support, naming the template", () => {
    for (const bad of ["{{ x | upper }}", "{% for i in r %}", "{{ f(1) }}", "{{ missing }}", "{{ 1 / 0 }}", "{{ (1 + 2 }}"]) {
      expect(() => renderTemplate(bad, { x: 1 }), bad).toThrow(expect.objectContaining({ code: "METADATA_INVALID" }));
    }
  });

  it("gives what Jinja2 gives for random integer expressions", () => {
    requirePeer(havePythonModules(["jinja2"]), "python3-jinja2");
    const expr = fc.letrec((tie) => ({
      leaf: fc.oneof(fc.integer({ min: -50, max: 50 }).map(String), fc.constantFrom("i", "j")),
      node: fc.oneof(
        { depthSize: "small", withCrossShrink: true },
        tie("leaf"),
        fc.tuple(tie("node"), fc.constantFrom("+", "-", "*", "//", "%"), tie("node")).map(([a, op, b]) => `(${a} ${op} ${b})`),
      ),
    })).node as fc.Arbitrary<string>;
    const cases = fc.sample(fc.tuple(expr, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 9 })), 300);
    const templates = cases.map(([e]) => `{{ ${e} }}`);
    const vars = cases.map(([, i, j]) => ({ i, j }));
    const script =
      "import json, sys, jinja2\nout = []\nfor t, v in json.load(sys.stdin):\n  try:\n    out.append(jinja2.Template(t).render(**v))\n  except ZeroDivisionError:\n    out.append(None)\nprint(json.dumps(out))";
    const jinja = JSON.parse(
      execFileSync("/usr/bin/python3", ["-c", script], { input: JSON.stringify(templates.map((t, k) => [t, vars[k]])) }).toString(),
    ) as (string | null)[];
    templates.forEach((t, k) => {
      if (jinja[k] === null) expect(() => renderTemplate(t, vars[k])).toThrow(/division by zero/);
      else expect(renderTemplate(t, vars[k]), `${t} with ${JSON.stringify(vars[k])}`).toBe(jinja[k]);
    });
  });
});
