// The bench's output: a markdown table of figure | value | budget | met?, and
// every number behind it in bench/results.json.
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { ServedComparison } from './server.js';

export interface Row {
  figure: string;
  value: string;
  budget: string;
  met: boolean | null; // null: informational, no budget set
}

export const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
export const ratio = (n: number) => `${n.toFixed(2)}×`;

/** A ratio row, with both absolute medians for context (never the verdict). */
export function pairRow(figure: string, r: ServedComparison, budget?: number): Row {
  const requests =
    r.requests.subject === r.requests.baseline ? '' : `; requests ${r.requests.subject} vs ${r.requests.baseline}`;
  return {
    figure,
    value: `${ratio(r.ratio)} (${ms(r.subjectMs)} vs ${ms(r.baselineMs)}${requests})`,
    budget: budget === undefined ? '—' : `≤ ${budget.toFixed(2)}`,
    met: budget === undefined ? null : r.ratio <= budget,
  };
}

export function printTable(rows: readonly Row[]): void {
  const cells = (r: Row) => [r.figure, r.value, r.budget, r.met === null ? 'n/a' : r.met ? 'yes' : 'NO'];
  console.log(`\nlunas bench: Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}\n`);
  console.log('| figure | value | budget | met? |\n|---|---|---|---|');
  for (const row of rows) console.log(`| ${cells(row).join(' | ')} |`);
}

export function writeResults(rows: readonly Row[], results: Record<string, unknown>): void {
  const environment = { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length };
  const json = JSON.stringify({ date: new Date().toISOString(), environment, rows, results }, null, 2);
  writeFileSync(new URL('./results.json', import.meta.url), `${json}\n`);
}
