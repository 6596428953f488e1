// The matrix's scenario (scenario.mjs) on the ES module build: each entry point imported.
import * as lunas from 'lunas-sdk';
import * as testing from 'lunas-sdk/testing';
import { runScenario } from './scenario.mjs';

await runScenario('esm', {
  ...lunas,
  ...testing,
  loadUndici: () => import('lunas-sdk/undici'),
  loadOtel: () => import('lunas-sdk/otel'),
  loadMcp: () => import('lunas-sdk/mcp'),
});
