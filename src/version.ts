/** The simulator's version, reported by `/_sim` and `content-sim --version`. */
export const VERSION = '0.1.0';
