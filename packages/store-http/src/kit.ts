/**
 * The store's up-front functions (transport.ts's `KIT`) as the lazily loaded modules use
 * them: those modules import `kit` from here, never the up-front modules themselves, and
 * each function a lazy module exports binds it first (`bindKit(t)`) from the transport it
 * is given. Why: see `KIT` (one file less for a first read).
 */
import type { Kit, Transport } from "./transport.js";

/** The kit, set by {@link bindKit} (the same object for every store). */
export let kit: Kit;

/** Makes {@link kit} the one `t` carries; called on entry by every lazily loaded operation. */
export function bindKit(t: Pick<Transport, "kit">): void {
  kit = t.kit;
}
