import { connect, type Socket } from 'node:net';

/**
 * The benchmarks' HTTP/1.1 client: kept connections, one per server port, each carrying one request at a
 * time (a second waits for the first), every request written to the socket in one piece and its response
 * read back by Content-Length or by chunks. It is the load generator's side of `npm run bench:server`, which
 * shares the machine's cores with the server and PostgreSQL it measures: node:http's client spends about
 * three times its CPU on a request (0.21 against 0.07 ms for a signed POST at 16 connections on the 2-core
 * machine), CPU the server and the database would otherwise have had.
 *
 * What it does not do: TLS, redirects, `Expect: 100-continue`, HEAD requests, or more than one request on
 * its way on a connection. A connection closed (after a `Connection: close` response, or lost) is opened
 * again for the next request; a request whose response had not ended when it closed fails.
 */
export interface HttpResponse {
  status: number;
  body: string;
}

export class HttpClient {
  private readonly connections = new Map<number, HttpConnection>();

  constructor(private readonly host = '127.0.0.1') {}

  request(port: number, method: string, path: string, headers: Readonly<Record<string, string>> = {}, body?: string): Promise<HttpResponse> {
    let connection = this.connections.get(port);
    if (!connection) {
      connection = new HttpConnection(this.host, port);
      this.connections.set(port, connection);
    }
    return connection.request(method, path, headers, body);
  }

  close(): void {
    for (const connection of this.connections.values()) connection.close();
    this.connections.clear();
  }
}

interface Pending {
  resolve: (response: HttpResponse) => void;
  reject: (error: Error) => void;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const LINE_END = Buffer.from('\r\n');

class HttpConnection {
  private socket: Socket | null = null;
  private received: Buffer = Buffer.alloc(0);
  private pending: Pending | null = null;
  /** The request on its way, if any: the next one waits for it. */
  private last: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  request(method: string, path: string, headers: Readonly<Record<string, string>>, body?: string): Promise<HttpResponse> {
    const sent = this.last.then(
      () => this.send(method, path, headers, body),
      () => this.send(method, path, headers, body),
    );
    this.last = sent.catch(() => undefined);
    return sent;
  }

  /** Closes the connection; a request on its way on it fails. */
  close(): void {
    this.socket?.destroy();
    this.socket = null;
    this.received = Buffer.alloc(0);
    this.fail(new Error(`connection to ${this.host}:${this.port} closed before the response ended`));
  }

  private send(method: string, path: string, headers: Readonly<Record<string, string>>, body?: string): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve, reject) => {
      this.pending = { resolve, reject };
      let head = `${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
      for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
      if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
      this.open().write(`${head}\r\n${body ?? ''}`);
    });
  }

  private open(): Socket {
    if (this.socket) return this.socket;
    const socket = connect(this.port, this.host);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
      this.read();
    });
    const lost = (error?: Error) => {
      if (this.socket !== socket) return;
      if (error) this.fail(error);
      this.close();
    };
    socket.on('error', lost);
    socket.on('close', () => lost());
    this.socket = socket;
    return socket;
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(error);
  }

  /** Takes a whole response off what was received, if there is one, and answers the request on its way. */
  private read(): void {
    const received = this.received;
    const headEnd = received.indexOf(HEADER_END);
    if (headEnd < 0) return;
    const head = received.toString('latin1', 0, headEnd);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!status) {
      this.fail(new Error(`not an HTTP response: ${JSON.stringify(head.slice(0, 40))}`));
      this.close();
      return;
    }
    let bodyEnd: number;
    let body: string;
    if (/\r\ntransfer-encoding:[^\r]*chunked/i.test(head)) {
      const chunks: Buffer[] = [];
      let at = headEnd + HEADER_END.length;
      for (;;) {
        const lineEnd = received.indexOf(LINE_END, at);
        if (lineEnd < 0) return;
        const size = Number.parseInt(received.toString('latin1', at, lineEnd), 16);
        if (Number.isNaN(size)) {
          this.fail(new Error('a chunk of the response has no size'));
          this.close();
          return;
        }
        if (size === 0) {
          // No trailers are expected: the last chunk is followed by an empty line.
          const end = received.indexOf(LINE_END, lineEnd + LINE_END.length);
          if (end < 0) return;
          bodyEnd = end + LINE_END.length;
          break;
        }
        const dataEnd = lineEnd + LINE_END.length + size;
        if (received.length < dataEnd + LINE_END.length) return;
        chunks.push(received.subarray(lineEnd + LINE_END.length, dataEnd));
        at = dataEnd + LINE_END.length;
      }
      body = Buffer.concat(chunks).toString('utf8');
    } else {
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const size = length ? Number(length[1]) : 0;
      bodyEnd = headEnd + HEADER_END.length + size;
      if (received.length < bodyEnd) return;
      body = received.toString('utf8', headEnd + HEADER_END.length, bodyEnd);
    }
    this.received = received.subarray(bodyEnd);
    const pending = this.pending;
    this.pending = null;
    if (/\r\nconnection: *close/i.test(head)) this.close();
    pending?.resolve({ status: Number(status[1]), body });
  }
}
