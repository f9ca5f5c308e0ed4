// Checks that no guide says a feature is missing when the README lists it. A guide's
// negative claims (a sentence saying "there is no …", "not supported", …, or a comparison
// table's @zarr cell saying "none" or "no …") are found by their wording; each must be
// about none of the README's FEATURES, and must be one of the reviewed ABSENT claims, so a
// new "missing" claim is looked at once, and an old one fails when the README gains what
// it denies. A comparison table also may not map another library's `arr.member` to
// something else when our arrays have a member of that name (`arr.is`).
import { codeSpans, proseUnits } from "./markdown-units.mjs";

/** Wording that says something is missing (in a sentence of prose or a table row). */
const DENIAL =
  /\b(?:[Tt]here (?:is|are) no|(?:[Nn]ot|[Nn]ever) (?:yet )?(?:supported|implemented|available)|[Uu]nsupported|(?:does|do|is|are)(?: not|n't) (?:support|supported|available)|[Nn]o (?:support|way|equivalent)|(?:is|are) missing)\b/;

/** A comparison table's @zarr cell that says we have nothing for the row. */
const DENYING_CELL = /^(?:none|no\b|not supported|unsupported|n\/a|-)/i;

/**
 * What the README lists that a guide might deny: `readme`, the README's wording of the
 * feature (each must match the README: a reworded README makes this table fail, not go
 * quiet); `about`, wording by which a sentence talks about it.
 */
export const FEATURES = [
  {
    feature: "selection by dimension name",
    readme: /by dimension name/,
    about: /\bnamed? selections?\b|\bselect(?:ion|ions|ing)? by (?:dimension )?names?\b|dimension names? (?:in|as) (?:a )?selections?\b|zarr\.select\b/i,
  },
  {
    feature: "pointwise selections (coordinates, masks)",
    readme: /pointwise \(coordinate and mask\) selections/,
    about: /\bvindex\b|\bcoordinate (?:indexing|selections?)\b|\bmask selections?\b|\bpointwise\b|\bfancy indexing\b/i,
  },
  {
    feature: "results typed by data type, narrowed with `arr.is`",
    readme: /`arr\.is`/,
    about: /\barr\.is\b|\bnarrow(?:ed|ing)?\b|\btyped by (?:the )?data type\b/i,
  },
  { feature: "consolidated metadata", readme: /consolidated metadata/, about: /\bconsolidat/i },
  { feature: "Zarr v2 read and write", readme: /Zarr v2 read and write/, about: /\b(?:zarr )?v2\b|zarr_format=2/i },
  { feature: "sharding partial reads and writes", readme: /partial reads .* and partial writes/, about: /\bshard/i },
  { feature: "a zip writer", readme: /a zip writer/, about: /\bzip\b/i },
  { feature: "S3 stores", readme: /S3 and S3-compatible servers/, about: /\bS3\b/ },
  { feature: "Google Cloud Storage", readme: /Google Cloud Storage/, about: /\bGCS\b|\bgs:\/\/|Google Cloud/ },
  { feature: "Azure Blob Storage", readme: /Azure Blob Storage/, about: /\bAzure\b|\baz:\/\// },
  { feature: "the `zarr serve` command", readme: /`serve`/, about: /\bzarr serve\b|\bserve command\b/ },
];

/**
 * Negative claims reviewed and true today: `{ guide, says, why, narrower? }`, `says` a
 * substring of the claim's text. A claim that is no longer in its guide fails the test
 * (drop its entry). A claim whose wording touches a README feature (FEATURES' `about`)
 * still fails unless `narrower` names that feature: the claim denies only part of it
 * (e.g. one kind of v2 filter, not v2).
 */
export const ABSENT = [
  { guide: "from-zarrita", says: "`ReferenceStore` of `@zarrita/storage`", why: "no kerchunk reference store: none of the packages reads reference JSON" },
];

/** The negative claims of guide `name` (Markdown `text`): `{ line, text }`. */
export function negativeClaims(text) {
  const claims = [];
  for (const unit of proseUnits(text)) {
    if (unit.kind === "row") {
      const ours = unit.header.findIndex((h) => h === "@zarr");
      const denies = ours === -1 ? DENIAL.test(unit.cells.join(" ")) : DENYING_CELL.test(unit.cells[ours] ?? "") || DENIAL.test(unit.cells[ours] ?? "");
      if (denies) claims.push({ line: unit.line, text: unit.cells.join(" | ") });
      continue;
    }
    for (const sentence of unit.text.replace(/\s+/g, " ").split(/(?<=[.!?:;])\s+(?=[A-Z`(])/)) {
      if (DENIAL.test(sentence)) claims.push({ line: unit.line, text: sentence });
    }
  }
  return claims;
}

/**
 * The problems of guide `name` (Markdown `text`) against the README's text `readme` and
 * the members of our array class `arrayMembers`: one line each, `name:line: …`.
 */
export function featureClaimProblems(name, text, readme, arrayMembers) {
  const problems = [];
  const listed = FEATURES.filter((f) => f.readme.test(readme));
  for (const claim of negativeClaims(text)) {
    const reviewed = ABSENT.find((a) => a.guide === name && claim.text.includes(a.says));
    const denied = listed.find((f) => f.about.test(claim.text) && !reviewed?.narrower?.includes(f.feature));
    if (denied !== undefined) {
      problems.push(`${name}:${claim.line}: says ${JSON.stringify(claim.text)}, but the README lists ${denied.feature}`);
    } else if (reviewed === undefined) {
      problems.push(
        `${name}:${claim.line}: says something is missing (${JSON.stringify(claim.text)}): if the README lists it, fix the guide; if it is true, add it to ABSENT in tools/docs/lib/feature-claims.mjs with why`,
      );
    }
  }
  for (const unit of proseUnits(text)) {
    if (unit.kind !== "row") continue;
    const ours = unit.header.findIndex((h) => h === "@zarr");
    if (ours === -1) continue;
    // The other library's `arr.x`: when our arrays have `x` too, our column must use it.
    const theirs = unit.cells.filter((_, i) => i !== ours).join(" ");
    for (const [, member] of theirs.matchAll(/`arr\.([A-Za-z_$][\w$]*)/g)) {
      if (!arrayMembers.has(member)) continue;
      const mentioned = codeSpans(unit.cells[ours] ?? "").some((s) => new RegExp(`\\.${member}\\b`).test(s));
      if (!mentioned) problems.push(`${name}:${unit.line}: maps \`arr.${member}\` to something else, but ZarrArray has \`${member}\` too: ${JSON.stringify(unit.cells[ours])}`);
    }
  }
  return problems;
}

/** The ABSENT entries whose claim is in no guide any more (`guides`: name → text). */
export function staleAbsentEntries(guides) {
  return ABSENT.filter((a) => !negativeClaims(guides.get(a.guide) ?? "").some((c) => c.text.includes(a.says)));
}
