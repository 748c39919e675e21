import { Agent, request as httpRequest } from 'node:http';
import { hmacSha256Hex } from '../signatures.ts';

/**
 * How the built-in game provider reaches the casino's seamless game wallet: over HTTP, each body signed
 * with the game provider's wallet key (`x-game-signature`), exactly as an outside aggregator does, so every
 * rule of the wallet (balance, bonus money and wagering, bet and loss limits, self-exclusion, idempotent
 * transaction ids, rollbacks) applies to house games unchanged.
 *
 * A call whose answer is unknown (network failure, timeout, a 5xx) is sent again with the very same body:
 * the wallet is idempotent on (round, action, transaction id), so a retry of a call that did go through
 * moves nothing and answers the first result.
 */

export type WalletPath = '/game-wallet/balance' | '/game-wallet/bet' | '/game-wallet/win' | '/game-wallet/rollback-bet' | '/game-wallet/rollback-win';

export interface WalletAnswer {
  status: number;
  body: unknown;
}

/**
 * One HTTP hop: POSTs the signed raw body and answers the status and parsed body. Throws when the answer
 * is unknown (unreachable, timed out). Tests replace it to drop or delay answers.
 */
export type WalletTransport = (path: WalletPath, rawBody: string, signature: string) => Promise<WalletAnswer>;

export interface HouseWalletOptions {
  transport: WalletTransport;
  /** Attempts per call when the answer is unknown (the first included). */
  attempts: number;
  /** Pause before the second attempt; doubled before each next one. */
  retryDelayMs: number;
}

export class WalletUnreachableError extends Error {
  override readonly name = 'WalletUnreachableError';
}

/**
 * The transport over real HTTP to the server's own address (`selfUrl`, set once it listens, as the payment
 * simulator's webhooks do), with a timeout per attempt. Through node:http with connections kept open:
 * fetch cost the server about a sixth of a house round's CPU (its streams, headers and abort signals).
 */
export function httpWalletTransport(options: { selfUrl: () => string | null; timeoutMs: number }): WalletTransport {
  const agent = new Agent({ keepAlive: true });
  return (path, rawBody, signature) =>
    new Promise((resolve, reject) => {
      const base = options.selfUrl();
      if (base === null) {
        reject(new WalletUnreachableError('the server is not listening yet'));
        return;
      }
      const body = Buffer.from(rawBody, 'utf8');
      const req = httpRequest(
        `${base}/api/v1${path}`,
        {
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-game-signature': signature },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            clearTimeout(timer);
            resolve(walletAnswer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')));
          });
          res.on('error', fail);
        },
      );
      function fail(error: Error): void {
        clearTimeout(timer);
        reject(error);
      }
      // The whole attempt, answer included, as AbortSignal.timeout bounded fetch.
      const timer = setTimeout(() => req.destroy(new WalletUnreachableError(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
      req.on('error', fail);
      req.end(body);
    });
}

/** An answer as received: its status and its parsed JSON body (null when empty or not JSON). */
export function walletAnswer(status: number, text: string): WalletAnswer {
  try {
    return { status, body: text === '' ? null : JSON.parse(text) };
  } catch {
    return { status, body: null };
  }
}

/** What a wallet call came to. */
export type WalletResult<T> =
  | { kind: 'ok'; data: T }
  /** The wallet refused, with its status and code (errors[0].description): nothing moved. */
  | { kind: 'refused'; status: number; code: string }
  /** No answer after every attempt: the call may or may not have gone through. */
  | { kind: 'unknown' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorCode(body: unknown): string {
  const errors = (body as { errors?: { description?: unknown }[] } | null)?.errors;
  const code = Array.isArray(errors) ? errors[0]?.description : undefined;
  return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
}

/**
 * One signed wallet call, retried with the same body while its answer is unknown. A 4xx is the wallet's
 * refusal and final; a 2xx answers `data` of the envelope.
 */
export async function callWallet<T>(
  options: HouseWalletOptions,
  secret: string,
  path: WalletPath,
  body: Record<string, unknown>,
  log: (message: string) => void = () => undefined,
): Promise<WalletResult<T>> {
  const rawBody = JSON.stringify(body);
  const signature = hmacSha256Hex(secret, rawBody);
  let delay = options.retryDelayMs;
  for (let attempt = 1; attempt <= Math.max(1, options.attempts); attempt += 1) {
    if (attempt > 1) {
      await sleep(delay);
      delay *= 2;
    }
    let answer: WalletAnswer;
    try {
      answer = await options.transport(path, rawBody, signature);
    } catch (error) {
      log(`game wallet ${path} attempt ${attempt}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
      continue;
    }
    if (answer.status >= 200 && answer.status < 300) {
      return { kind: 'ok', data: (answer.body as { data: T }).data };
    }
    if (answer.status >= 400 && answer.status < 500) return { kind: 'refused', status: answer.status, code: errorCode(answer.body) };
    log(`game wallet ${path} attempt ${attempt}: status ${answer.status} ${errorCode(answer.body)}`);
  }
  return { kind: 'unknown' };
}
