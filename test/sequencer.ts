import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files known to run for a minute or more: browser journeys, the catalog fuzzer and the CLI's real processes. A fresh
 * clone (CI) has no timings from an earlier run, and Vitest would then start the largest files first and leave one of
 * the two workers alone with the fuzzer at the end.
 */
const LONG_RUNNING = [/^test\/console\//, /\.browser\.test\.ts$/, /-browser\.test\.ts$/, /^test\/fuzz\//, /^test\/foundation\/cli\.test\.ts$/];

/** Longest first: the last run's timings where every file has one, otherwise the long-running kinds, then by size. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const timed = sorted.every((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${file.moduleId.slice(root.length + 1)}`));
    if (timed) return sorted;
    const long = (file: TestSpecification) => LONG_RUNNING.some((pattern) => pattern.test(file.moduleId.slice(root.length + 1)));
    // Array.prototype.sort is stable: within each kind, the base order (largest first) stays.
    return sorted.sort((a, b) => Number(long(b)) - Number(long(a)));
  }
}
