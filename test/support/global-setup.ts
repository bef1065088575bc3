/** Embeds the OpenAPI documents before any test imports the engine, so `npx vitest` works alone too. */
export default async function setup(): Promise<void> {
  await import('../../scripts/embed-openapi.js');
}
