/**
 * The part of Jinja2 that kerchunk reference sets use: `{{ expression }}` blocks in keys,
 * URLs, offsets and lengths of version-1 `gen` entries (and `{{name}}` template
 * references in URLs). An expression is names, integer and string literals, `+ - * / // %
 * **`, unary minus and parentheses, evaluated the way Python does (`//` and `%` floor,
 * `/` gives a float). Anything else (filters, statements, calls) is refused with a coded
 * error rather than rendered wrong.
 */
import { ZarrError } from "@zarr/spec";

/** A value a template can hold: a generator's dimension value or a template string. */
export type TemplateValue = number | string;

type Token = { kind: "num"; value: number; float: boolean } | { kind: "str"; value: string } | { kind: "name"; value: string } | { kind: "op"; value: string };

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|'([^']*)'|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|\/\/|[-+*/%()]))/y;

function refuse(template: string, why: string): never {
  throw new ZarrError("METADATA_INVALID", `Cannot render the reference template ${JSON.stringify(template)}: ${why}`);
}

function tokenize(expression: string, template: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < expression.length) {
    if (/^\s*$/.test(expression.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(expression);
    if (m === null) refuse(template, `unsupported syntax at ${JSON.stringify(expression.slice(at).trim())}`);
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push({ kind: "num", value: Number(m[1]), float: m[1].includes(".") });
    else if (m[2] !== undefined || m[3] !== undefined) tokens.push({ kind: "str", value: m[2] ?? m[3] });
    else if (m[4] !== undefined) tokens.push({ kind: "name", value: m[4] });
    else tokens.push({ kind: "op", value: m[5] });
  }
  return tokens;
}

/** Python's floor division and modulo, which Jinja2 follows. */
const floorDiv = (a: number, b: number) => Math.floor(a / b);
const pyMod = (a: number, b: number) => a - b * Math.floor(a / b);

/**
 * Evaluates one `{{ }}` expression (precedence climbing; `**` binds right, above unary
 * minus), and whether Python would make its value a float (a `/`, a float literal or a
 * negative power met on the way).
 */
function evaluate(expression: string, vars: Readonly<Record<string, TemplateValue>>, template: string): [TemplateValue, boolean] {
  const tokens = tokenize(expression, template);
  let isFloat = false;
  let i = 0;
  const peek = () => tokens[i];
  const number = (v: TemplateValue): number => {
    if (typeof v !== "number") refuse(template, `arithmetic on the text ${JSON.stringify(v)}`);
    return v;
  };
  const primary = (): TemplateValue => {
    const t = tokens[i++];
    if (t === undefined) return refuse(template, "the expression ends too early");
    if (t.kind === "num") {
      if (t.float) isFloat = true;
      return t.value;
    }
    if (t.kind === "str") return t.value;
    if (t.kind === "name") {
      if (!Object.hasOwn(vars, t.value)) refuse(template, `no variable named ${JSON.stringify(t.value)}`);
      return vars[t.value];
    }
    if (t.value === "(") {
      const v = sum();
      if (tokens[i++]?.value !== ")") refuse(template, "a parenthesis is not closed");
      return v;
    }
    return refuse(template, `unexpected ${JSON.stringify(t.value)}`);
  };
  const power = (): TemplateValue => {
    const base = primary();
    if (peek()?.value !== "**") return base;
    i++;
    const exponent = number(unary());
    if (exponent < 0) isFloat = true;
    return number(base) ** exponent;
  };
  const unary = (): TemplateValue => {
    const t = peek();
    if (t?.kind === "op" && (t.value === "-" || t.value === "+")) {
      i++;
      const v = number(unary());
      return t.value === "-" ? -v : v;
    }
    return power();
  };
  const product = (): TemplateValue => {
    let v = unary();
    for (let t = peek(); t?.kind === "op" && ["*", "/", "//", "%"].includes(t.value); t = peek()) {
      i++;
      const r = number(unary());
      const l = number(v);
      if (t.value !== "*" && r === 0) refuse(template, "division by zero");
      if (t.value === "/") isFloat = true;
      v = t.value === "*" ? l * r : t.value === "/" ? l / r : t.value === "//" ? floorDiv(l, r) : pyMod(l, r);
    }
    return v;
  };
  const sum = (): TemplateValue => {
    let v = product();
    for (let t = peek(); t?.kind === "op" && (t.value === "+" || t.value === "-"); t = peek()) {
      i++;
      const r = product();
      if (t.value === "+" && typeof v === "string" && typeof r === "string") v += r;
      else v = t.value === "+" ? number(v) + number(r) : number(v) - number(r);
    }
    return v;
  };
  const value = sum();
  if (i < tokens.length) refuse(template, `unexpected ${JSON.stringify(tokens[i].value)}`);
  return [value, isFloat];
}

/** A number as Jinja2 prints it: integers without a fraction, floats with one (`2.0`). */
function text(value: TemplateValue, isFloat: boolean): string {
  if (typeof value === "string") return value;
  if (Number.isInteger(value) && isFloat) return `${value}.0`;
  return String(value);
}

/**
 * Renders `template`: every `{{ expression }}` replaced by its value with `vars`.
 *
 * @example
 * ```ts
 * renderTemplate("data/{{ i }}.{{ j }}", { i: 2, j: 0 }); // "data/2.0"
 * renderTemplate("{{ 8 + i * 4096 }}", { i: 3 }); // "12296"
 * ```
 */
export function renderTemplate(template: string, vars: Readonly<Record<string, TemplateValue>>): string {
  if (!template.includes("{")) return template;
  if (/\{%|\{#/.test(template)) refuse(template, "Jinja2 statements and comments are not supported");
  return template.replace(/\{\{(.*?)\}\}/gs, (_, expression: string) => {
    const [value, isFloat] = evaluate(expression, vars, template);
    return text(value, isFloat);
  });
}
