declare const config: Record<string, unknown> & { mutate: string[] };
export default config;
