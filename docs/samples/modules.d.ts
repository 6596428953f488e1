// Packages the guides' samples import beside lunas-sdk, which a merchant's
// project has and the sample check does not install. Declared here by the
// little of them the samples use, so the check holds each sample's use of
// lunas; a package whose values flow into nothing typed is declared whole as
// `any` (a shorthand `declare module`).
declare module 'pino';
declare module 'prom-client';
declare module 'undici';

declare module 'express' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Request extends IncomingMessage {
    /** The bytes, as `express.raw()` leaves them. */
    body: Buffer;
  }
  interface Response extends ServerResponse {
    sendStatus(status: number): this;
  }
  type Handler = (req: Request, res: Response, next: (error?: unknown) => void) => unknown;
  interface Application {
    post(path: string, ...handlers: Handler[]): this;
  }
  interface Express {
    (): Application;
    raw(options?: { type?: string }): Handler;
  }
  const express: Express;
  export default express;
}

// The OpenTelemetry packages of docs/tracing.md's setup that the repository does not have
// (@opentelemetry/api and @opentelemetry/sdk-metrics are linked in whole: LINKED in the script).
declare module '@opentelemetry/sdk-node' {
  import type { MetricReader } from '@opentelemetry/sdk-metrics';

  export class NodeSDK {
    constructor(options: { serviceName?: string; traceExporter?: unknown; metricReader?: MetricReader });
    start(): void;
    shutdown(): Promise<void>;
  }
}

declare module '@opentelemetry/exporter-trace-otlp-http' {
  export class OTLPTraceExporter {
    constructor(options?: { url?: string });
  }
}

declare module '@opentelemetry/exporter-metrics-otlp-http' {
  import type { PushMetricExporter } from '@opentelemetry/sdk-metrics';

  export class OTLPMetricExporter implements PushMetricExporter {
    constructor(options?: { url?: string });
    export: PushMetricExporter['export'];
    forceFlush: PushMetricExporter['forceFlush'];
    shutdown: PushMetricExporter['shutdown'];
  }
}

declare module '@playwright/test' {
  interface Locator {
    click(): Promise<void>;
  }
  interface Page {
    goto(url: string): Promise<unknown>;
    reload(): Promise<unknown>;
    getByRole(role: string, options?: { name?: string }): Locator;
    getByText(text: string): Locator;
  }
  interface Test {
    (name: string, body: (fixtures: { page: Page }) => Promise<void>): void;
    afterEach(body: () => void | Promise<void>): void;
  }
  export const test: Test;
  export function expect(locator: Locator): { toBeVisible(): Promise<void> };
}

// BullMQ, by what docs/payouts-at-scale.md's worker uses (examples/settlement runs it for real).
declare module 'bullmq' {
  export interface Job<T> {
    id?: string | undefined;
    data: T;
  }
  export class Queue<T> {
    add(name: string, data: T): Promise<Job<T>>;
    rateLimit(expireTimeMs: number): Promise<void>;
  }
  export class RateLimitError extends Error {}
  export class UnrecoverableError extends Error {}
}
