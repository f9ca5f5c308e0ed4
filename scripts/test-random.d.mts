/** A generator of numbers in [0, 1) determined by `seed` (mulberry32). */
export function mulberry32(seed: number): () => number;
