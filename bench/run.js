// npm run bench -- <name>: runs bench/<name>.js. Each benchmark prints its figures next to a
// comparison measured in the same run, since only ratios hold on a noisy machine.
// npm run bench (no name): runs every benchmark, one after another in its own process, and writes
// bench/REPORT.md: each target's figure, its comparison from the same run, the target, met or not,
// then every benchmark's whole output.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const here = new URL('.', import.meta.url);
const available = fs.readdirSync(here)
  .filter((f) => f.endsWith('.js') && !['run.js', 'lib.js'].includes(f)).map((f) => f.slice(0, -3));
const name = process.argv[2];

if (name) {
  if (!available.includes(name)) {
    console.error(`usage: npm run bench -- <${available.join('|')}>, or npm run bench for all of them and bench/REPORT.md`);
    process.exit(2);
  }
  await import(`./${name}.js`);
} else {
  await runAll();
}

/** Runs one benchmark in a child process, echoing its output; answers its output, exit code and seconds. */
function runOne(bench, reportFile) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [new URL(`./${bench}.js`, here).pathname], {
      env: { ...process.env, BENCH_REPORT: reportFile }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk, stream) => { output += chunk; stream.write(chunk); };
    child.stdout.on('data', (chunk) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk) => keep(chunk, process.stderr));
    child.on('exit', (code) => resolve({ output, code, seconds: (performance.now() - started) / 1000 }));
  });
}

async function runAll() {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'atrium-bench-report-'));
  const results = [];
  for (const bench of available) {
    console.log(`\n===== ${bench}`);
    const reportFile = path.join(scratch, `${bench}.jsonl`);
    const run = await runOne(bench, reportFile);
    const verdicts = fs.existsSync(reportFile)
      ? fs.readFileSync(reportFile, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
    results.push({ bench, ...run, verdicts });
  }
  fs.rmSync(scratch, { recursive: true, force: true });

  const cell = (text) => String(text).replaceAll('|', '\\|');
  const rows = results.flatMap(({ bench, verdicts, code }) => (verdicts.length
    ? verdicts.map((v) => `| ${bench} | ${cell(v.what)} | ${cell(v.figure)} | ${cell(v.comparison)} | ${cell(v.target)} | ${v.met ? 'met' : '**not met**'} |`)
    : [`| ${bench} | (no figure: the benchmark ${code === 0 ? 'printed no target' : `failed with exit code ${code}`}) | | | | **not met** |`]));
  const met = results.flatMap((r) => r.verdicts).filter((v) => v.met).length;
  const total = results.flatMap((r) => r.verdicts).length;
  const report = [
    '# Benchmark report',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString()}: Node ${process.version}, ${os.availableParallelism()} cores, `
      + `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} at the end. Every figure is next to its comparison measured `
      + 'in the same run, since only ratios hold on a noisy machine. ',
    `${met} of ${total} targets met.`,
    '',
    '| benchmark | what | figure | compared with (same run) | target | |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Whole output',
    '',
    ...results.flatMap(({ bench, output, code, seconds }) => [
      `### ${bench} (${seconds.toFixed(0)} s${code ? `, exit code ${code}` : ''})`, '', '```', output.trim(), '```', '']),
  ].join('\n');
  fs.writeFileSync(new URL('./REPORT.md', here), report);
  console.log(`\nbench/REPORT.md written: ${met} of ${total} targets met`);
}
