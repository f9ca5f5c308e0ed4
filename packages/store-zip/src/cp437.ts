/**
 * Code page 437, the encoding of zip entry names written without the UTF-8 flag
 * (general purpose bit 11). Bytes below 0x80 are ASCII; the upper half maps to the
 * characters below (the same table Python's `zipfile` and Info-ZIP use).
 */
const UPPER_HALF =
  "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0";

/** Decodes CP437 bytes to a string. */
export function decodeCp437(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    out += b < 0x80 ? String.fromCharCode(b) : UPPER_HALF[b - 0x80];
  }
  return out;
}
