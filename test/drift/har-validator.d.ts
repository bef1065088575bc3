/** har-validator ships no types: the one call the tests make. It rejects with an HARError that lists the schema's errors. */
declare module 'har-validator' {
  const validator: { har(data: unknown): Promise<unknown> };
  export default validator;
}
