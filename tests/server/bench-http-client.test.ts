import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient } from '../../scripts/lib/http-client.ts';

/** The benchmarks' HTTP client (scripts/lib/http-client.ts) against a local node:http server. */
describe('the benchmarks’ HTTP client', () => {
  let server: Server | null = null;
  let client: HttpClient | null = null;
  const sockets = new Set<Socket>();

  afterEach(async () => {
    client?.close();
    client = null;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  async function serve(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void): Promise<number> {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => handler(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('sends the method, path, headers and body, and answers the status and the body', async () => {
    const port = await serve((req, body, res) => {
      const answer = JSON.stringify({ method: req.method, url: req.url, signature: req.headers['x-signature'], length: req.headers['content-length'], body });
      res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    });
    client = new HttpClient();
    const response = await client.request(port, 'POST', '/api/v1/thing?x=1', { 'content-type': 'application/json', 'x-signature': 'abc' }, '{"name":"Ação €"}');
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body)).toEqual({
      method: 'POST',
      url: '/api/v1/thing?x=1',
      signature: 'abc',
      length: String(Buffer.byteLength('{"name":"Ação €"}')),
      body: '{"name":"Ação €"}',
    });
    const get = await client.request(port, 'GET', '/again');
    expect(JSON.parse(get.body)).toMatchObject({ method: 'GET', url: '/again', body: '' });
  });

  it('keeps one connection per port, and runs requests made at once one after another on it', async () => {
    let connections = 0;
    const port = await serve((req, _body, res) => {
      // The first request is answered late: the second must not be answered with its response.
      setTimeout(() => res.end(req.url), req.url === '/1' ? 30 : 0);
    });
    server!.on('connection', () => (connections += 1));
    client = new HttpClient();
    const answers = await Promise.all(['/1', '/2', '/3'].map((path) => client!.request(port, 'GET', path)));
    expect(answers.map((answer) => answer.body)).toEqual(['/1', '/2', '/3']);
    expect(connections).toBe(1);
  });

  it('reads a chunked response, and an empty one', async () => {
    const port = await serve((req, _body, res) => {
      if (req.url === '/empty') {
        res.writeHead(204);
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first part, ');
      setTimeout(() => res.end('then the rest ✓'), 10);
    });
    client = new HttpClient();
    expect(await client.request(port, 'GET', '/chunks')).toEqual({ status: 200, body: 'first part, then the rest ✓' });
    expect(await client.request(port, 'GET', '/empty')).toEqual({ status: 204, body: '' });
    expect(await client.request(port, 'GET', '/chunks')).toEqual({ status: 200, body: 'first part, then the rest ✓' });
  });

  it('opens the connection again after the server closed it', async () => {
    let connections = 0;
    const port = await serve((req, _body, res) => {
      res.writeHead(200, { connection: 'close', 'content-length': 2 });
      res.end('ok');
    });
    server!.on('connection', () => (connections += 1));
    client = new HttpClient();
    expect((await client.request(port, 'GET', '/a')).body).toBe('ok');
    expect((await client.request(port, 'GET', '/b')).body).toBe('ok');
    expect(connections).toBe(2);
  });

  it('fails a request whose connection is lost before its response ends, and goes on with the next', async () => {
    const port = await serve((req, _body, res) => {
      if (req.url === '/lost') {
        res.writeHead(200, { 'content-length': 100 });
        res.write('part');
        setTimeout(() => req.socket.destroy(), 10);
        return;
      }
      res.end('fine');
    });
    client = new HttpClient();
    await expect(client.request(port, 'GET', '/lost')).rejects.toThrow(/closed before the response ended/);
    expect((await client.request(port, 'GET', '/next')).body).toBe('fine');
  });

  it('fails a request to a port nothing listens on', async () => {
    const port = await serve((_req, _body, res) => res.end());
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = null;
    client = new HttpClient();
    await expect(client.request(port, 'GET', '/')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('fails an answer that is not HTTP', async () => {
    const { createServer: createTcpServer } = await import('node:net');
    const tcp = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      // Read what the client sends, so that its end is seen and the connection closes.
      socket.resume();
      socket.end('SSH-2.0-OpenSSH\r\n\r\n');
    });
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      client = new HttpClient();
      await expect(client.request((tcp.address() as AddressInfo).port, 'GET', '/')).rejects.toThrow(/not an HTTP response/);
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });
});
