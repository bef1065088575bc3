// Types of the generated standalone validators (scripts/compile-validators.ts).
import type { ValidateFunction } from 'ajv';
export declare const byKey: Record<string, ValidateFunction>;
