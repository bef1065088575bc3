/**
 * A heartbeat for long runs: the default reporter prints a file when it ends, so a run whose
 * heaviest files take minutes says nothing for minutes. Every 30 seconds this prints one line:
 * how far the run is, what it has found so far, and which files are running and for how long.
 */
import type { Reporter, TestCase, TestModule, TestSpecification } from 'vitest/node';

const EVERY_MS = Number(process.env.TEST_PROGRESS_EVERY_MS ?? 30_000);

export default class ProgressReporter implements Reporter {
  private started = 0;
  private timer: NodeJS.Timeout | undefined;
  private files = 0;
  private filesDone = 0;
  private readonly running = new Map<string, number>();
  private readonly counts = { passed: 0, failed: 0, skipped: 0 };

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.started = Date.now();
    this.files = specifications.length;
    if (EVERY_MS > 0) {
      this.timer = setInterval(() => this.beat(), EVERY_MS);
      this.timer.unref();
    }
  }

  onTestModuleStart(module: TestModule): void {
    this.running.set(module.relativeModuleId, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.running.delete(module.relativeModuleId);
    this.filesDone += 1;
  }

  onTestCaseResult(test: TestCase): void {
    const state = test.result().state;
    if (state === 'passed' || state === 'failed' || state === 'skipped') this.counts[state] += 1;
  }

  onTestRunEnd(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private beat(): void {
    const now = Date.now();
    const longest = [...this.running].sort((a, b) => a[1] - b[1]).slice(0, 3);
    const running = longest.map(([file, since]) => `${file} (${duration(now - since)})`).join(', ');
    const more = this.running.size > longest.length ? ` and ${this.running.size - longest.length} more` : '';
    const { passed, failed, skipped } = this.counts;
    process.stdout.write(
      `[progress ${duration(now - this.started)}] ${this.filesDone}/${this.files} files · ${passed} passed, ${failed} failed, ${skipped} skipped` +
        (running ? ` · running: ${running}${more}` : '') + '\n',
    );
  }
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
