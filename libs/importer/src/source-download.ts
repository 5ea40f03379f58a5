import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { withSourceNames } from '@app/common';

/** What the previous successful download of a URL answered, sent back as conditions. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

export interface DownloadOptions {
  previous?: Validators;
  /** Longest wait for the server to connect, answer or send the next bytes. */
  timeoutMs: number;
  maxBytes: number;
  attempts: number;
  /** Wait before the second attempt; doubled before each next one. */
  backoffMs: number;
}

export const DEFAULT_DOWNLOAD: DownloadOptions = {
  timeoutMs: 30_000,
  maxBytes: 512 * 1024 * 1024,
  attempts: 3,
  backoffMs: 1000,
};

export type Download =
  | { kind: 'not-modified' }
  | {
      kind: 'downloaded';
      /** The temporary file; `discard()` removes it (and its folder). */
      path: string;
      /** SHA-256 of the bytes, hex. */
      hash: string;
      validators: Validators;
      discard: () => Promise<void>;
    };

/** A failure the caller reports as it is; `retry` says whether another attempt may succeed. */
export class DownloadError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * Downloads `url` to a temporary file, retrying network errors, timeouts and 5xx with back-off.
 * Anything but a complete body (or a 304) throws a `DownloadError` and leaves no file behind.
 * Attempts that answer different validators mean the file changed meanwhile: that fails too,
 * since the bytes of one version cannot be trusted to match what the other announced.
 */
export async function downloadSource(url: string, options: DownloadOptions): Promise<Download> {
  let seen: Validators | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return await attemptDownload(url, options, (validators) => {
        if (seen && !sameValidators(seen, validators)) {
          throw new DownloadError(`${url} changed between two download attempts`, false);
        }
        seen = validators;
      });
    } catch (error) {
      const failure =
        error instanceof DownloadError
          ? error
          : new DownloadError(`cannot download ${url}: ${networkReason(error, url)}`, true);
      if (!failure.retry || attempt >= options.attempts) throw failure;
      await new Promise((r) => setTimeout(r, options.backoffMs * 2 ** (attempt - 1)));
    }
  }
}

const sameValidators = (a: Validators, b: Validators) =>
  a.etag === b.etag && a.lastModified === b.lastModified;

/**
 * The innermost cause of a fetch failure ("fetch failed" alone says nothing), its URLs named
 * before it is cut (the cause may quote the URL, credentials included).
 */
function networkReason(error: unknown, url: string): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const message = current instanceof Error ? current.message : String(current);
  return withSourceNames(message.split('\n')[0], [url]).slice(0, 200);
}

async function attemptDownload(
  url: string,
  options: DownloadOptions,
  checkValidators: (validators: Validators) => void,
): Promise<Download> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, options.timeoutMs);
  };
  const timeout = () =>
    new DownloadError(
      `${url}: no answer from the server within ${options.timeoutMs / 1000} s (timeout)`,
      true,
    );
  const headers: Record<string, string> = { 'accept-encoding': 'identity' };
  if (options.previous?.etag) headers['if-none-match'] = options.previous.etag;
  if (options.previous?.lastModified) headers['if-modified-since'] = options.previous.lastModified;

  let dir: string | undefined;
  const discard = async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  arm();
  try {
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: controller.signal, redirect: 'follow' });
    } catch (error) {
      if (timedOut) throw timeout();
      throw error;
    }
    if (response.status === 304) {
      await response.body?.cancel();
      return { kind: 'not-modified' };
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new DownloadError(
        `${url} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`,
        response.status >= 500,
      );
    }
    const validators: Validators = {
      etag: response.headers.get('etag'),
      lastModified: response.headers.get('last-modified'),
    };
    checkValidators(validators);
    const header = response.headers.get('content-length');
    const expected = header === null ? undefined : Number(header);
    if (expected !== undefined && expected > options.maxBytes) {
      await response.body.cancel();
      throw new DownloadError(`${url} is larger than ${options.maxBytes} bytes`, false);
    }

    dir = await mkdtemp(join(tmpdir(), 'covid-download-'));
    const path = join(dir, 'source');
    const hash = createHash('sha256');
    const file = createWriteStream(path);
    let received = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        arm();
        received += chunk.length;
        if (received > options.maxBytes) {
          controller.abort();
          throw new DownloadError(`${url} is larger than ${options.maxBytes} bytes`, false);
        }
        hash.update(chunk);
        if (!file.write(chunk)) await once(file, 'drain');
      }
    } catch (error) {
      if (error instanceof DownloadError) throw error;
      if (timedOut) throw timeout();
      if (expected !== undefined && received < expected) throw truncated(url, received, expected);
      throw error;
    } finally {
      file.end();
      await once(file, 'close');
    }
    if (expected !== undefined && received !== expected) throw truncated(url, received, expected);
    const done = { kind: 'downloaded' as const, path, hash: hash.digest('hex'), validators };
    dir = undefined;
    return { ...done, discard: () => rm(join(path, '..'), { recursive: true, force: true }) };
  } catch (error) {
    await discard();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const truncated = (url: string, received: number, expected: number) =>
  new DownloadError(
    `${url}: the body ended after ${received} of its ${expected} bytes (Content-Length)`,
    true,
  );
