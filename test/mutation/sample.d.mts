export declare const MUTATE: string[];
