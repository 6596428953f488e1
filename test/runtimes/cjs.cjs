// The matrix's scenario (scenario.mjs, an ES module, so imported) on the CommonJS build: each
// entry point required.
/* global console, process, require */
/* eslint-disable @typescript-eslint/no-require-imports -- the CommonJS build is what this program loads */
'use strict';
const lunas = {
  ...require('lunas-sdk'),
  ...require('lunas-sdk/testing'),
  loadUndici: async () => require('lunas-sdk/undici'),
  loadOtel: async () => require('lunas-sdk/otel'),
  loadMcp: async () => require('lunas-sdk/mcp'),
};
import('./scenario.mjs')
  .then(({ runScenario }) => runScenario('cjs', lunas))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
