/** The ```js readme-example blocks of a README. */
export function readmeExamples(readmePath: string): string[];
/** Runs every example block of `packageDir`/README.md; returns their outputs. */
export function runReadmeExamples(packageDir: string, options?: { env?: Record<string, string>; timeout?: number }): string[];
