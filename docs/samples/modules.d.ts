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

declare module '@opentelemetry/api' {
  type AttributeValue = string | number | boolean;
  export enum SpanKind {
    INTERNAL,
    SERVER,
    CLIENT,
    PRODUCER,
    CONSUMER,
  }
  export enum SpanStatusCode {
    UNSET,
    OK,
    ERROR,
  }
  export interface Span {
    setAttribute(key: string, value: AttributeValue): this;
    recordException(exception: Error): void;
    setStatus(status: { code: SpanStatusCode; message?: string }): this;
    end(): void;
  }
  export interface Tracer {
    startSpan(name: string, options?: { kind?: SpanKind; attributes?: Record<string, AttributeValue> }): Span;
  }
  export const trace: { getTracer(name: string): Tracer };
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
