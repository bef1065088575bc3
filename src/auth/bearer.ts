/** The credential of `Authorization: Bearer <credential>` (scheme in any case), or null when the header is absent or not that. */
export function bearerCredential(authorization: string | null | undefined): string | null {
  const match = authorization ? /^Bearer[ ]+(\S+)\s*$/i.exec(authorization) : null;
  return match ? (match[1] as string) : null;
}
