/** Base64 and data: URLs without Buffer, so the same code runs in a browser service worker. */

/** Standard base64 of raw bytes (btoa works on "binary strings", one char per byte). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  // Chunked so that spreading into fromCharCode stays under engines' argument limits.
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

export function toDataUrl(bytes: Uint8Array, mimeType: string): string {
  return `data:${mimeType};base64,${bytesToBase64(bytes)}`;
}

/** An SVG document as a data: URL; the text is UTF-8 encoded first so any script survives. */
export function svgToDataUrl(svg: string): string {
  return toDataUrl(new TextEncoder().encode(svg), 'image/svg+xml');
}
