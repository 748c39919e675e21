import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../server/db/db.ts';
import { migrate } from '../../server/db/migrate.ts';
import {
  createMailTransport,
  createOutboxTransport,
  createSmtpTransport,
  listMailbox,
  MailDeliveryError,
  passwordResetEmail,
  verificationEmail,
  type MailMessage,
} from '../../server/providers/mail.ts';

// tests/helpers/db.ts needs the seed module, which these tests do not: one migrated PGlite for the file,
// with a distinct address per test.
let db: Db;

beforeAll(async () => {
  db = await openDb({ kind: 'pglite' });
  await migrate(db);
});

afterAll(async () => {
  await db?.close();
});

let addressCounter = 0;
function address(label: string): string {
  addressCounter += 1;
  return `${label}.${addressCounter}.${Date.now()}@example.com`;
}

function message(to: string, subject: string, links: string[] = []): MailMessage {
  return { to, subject, text: `Body of ${subject}`, links };
}

interface OutboxRow {
  [column: string]: unknown;
  to_address: string;
  subject: string;
  html_body: string | null;
  links: string[];
  delivered_via: string;
  error: string | null;
}

function outboxRows(to: string): Promise<OutboxRow[]> {
  return db.query<OutboxRow>(
    'SELECT to_address, subject, html_body, links, delivered_via, error FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY id',
    [to],
  );
}

// ---------------------------------------------------------------------------------------------------------
// A minimal SMTP server: enough of RFC 5321 for nodemailer (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT).

interface ReceivedMail {
  from: string;
  recipients: string[];
  data: string;
}

interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

async function startSmtpSink(options: { rejectRecipients?: boolean } = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let inData = false;
    let dataLines: string[] = [];
    let envelope: { from: string; recipients: string[] } = { from: '', recipients: [] };
    const reply = (line: string) => socket.write(`${line}\r\n`);

    const handleCommand = (line: string) => {
      const verb = line.split(' ', 1)[0]?.toUpperCase() ?? '';
      if (verb === 'EHLO') return reply('250-sink.test greets you\r\n250 8BITMIME');
      if (verb === 'HELO') return reply('250 sink.test');
      if (verb === 'MAIL') {
        envelope = { from: /<([^>]*)>/.exec(line)?.[1] ?? '', recipients: [] };
        return reply('250 2.1.0 Ok');
      }
      if (verb === 'RCPT') {
        if (options.rejectRecipients) return reply('550 5.1.1 Mailbox unavailable');
        envelope.recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
        return reply('250 2.1.5 Ok');
      }
      if (verb === 'DATA') {
        if (envelope.recipients.length === 0) return reply('554 5.5.1 No valid recipients');
        inData = true;
        dataLines = [];
        return reply('354 End data with <CR><LF>.<CR><LF>');
      }
      if (verb === 'RSET') {
        envelope = { from: '', recipients: [] };
        return reply('250 2.0.0 Ok');
      }
      if (verb === 'NOOP') return reply('250 2.0.0 Ok');
      if (verb === 'QUIT') {
        reply('221 2.0.0 Bye');
        socket.end();
        return;
      }
      reply('502 5.5.2 Command not recognized');
    };

    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let index: number;
      while ((index = buffer.indexOf('\r\n')) !== -1) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (!inData) {
          handleCommand(line);
          continue;
        }
        if (line === '.') {
          inData = false;
          received.push({ ...envelope, data: dataLines.join('\r\n') });
          reply('250 2.0.0 Ok: queued');
          continue;
        }
        // Dot-stuffing (RFC 5321 4.5.2).
        dataLines.push(line.startsWith('..') ? line.slice(1) : line);
      }
    });
    reply('220 sink.test ESMTP test sink');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------------------

describe('outbox transport', () => {
  it('records a message that listMailbox returns with its links', async () => {
    const to = address('player');
    await createOutboxTransport(db).send({
      to,
      subject: 'Confirm your email address',
      text: 'Open https://casino.test/verify?token=abc',
      html: '<p>Open</p>',
      links: ['https://casino.test/verify?token=abc'],
    });

    const mailbox = await listMailbox(db, to);
    expect(mailbox).toHaveLength(1);
    const [entry] = mailbox;
    expect(entry).toMatchObject({
      to,
      subject: 'Confirm your email address',
      text: 'Open https://casino.test/verify?token=abc',
      links: ['https://casino.test/verify?token=abc'],
    });
    expect(typeof entry?.id).toBe('number');
    expect(Number.isNaN(Date.parse(entry?.sentAt ?? ''))).toBe(false);
    expect(await outboxRows(to)).toEqual([
      expect.objectContaining({ html_body: '<p>Open</p>', delivered_via: 'outbox', error: null }),
    ]);
  });

  it('lists newest first, matches the address case-insensitively and honours the limit', async () => {
    const to = address('Mixed.Case');
    const outbox = createOutboxTransport(db);
    for (const subject of ['first', 'second', 'third']) await outbox.send(message(to, subject));
    await outbox.send(message(address('someone-else'), 'not yours'));

    const mailbox = await listMailbox(db, to.toUpperCase());
    expect(mailbox.map((entry) => entry.subject)).toEqual(['third', 'second', 'first']);
    expect((await listMailbox(db, `  ${to.toLowerCase()} `, 2)).map((entry) => entry.subject)).toEqual(['third', 'second']);
  });

  it('keeps a message with no links and no HTML', async () => {
    const to = address('plain');
    await createOutboxTransport(db).send(message(to, 'plain'));
    const [entry] = await listMailbox(db, to);
    expect(entry?.links).toEqual([]);
    expect((await outboxRows(to))[0]?.html_body).toBeNull();
  });

  it('sends inside a transaction and disappears with its rollback', async () => {
    const to = address('rolled-back');
    await expect(
      db.transaction(async (tx) => {
        await createOutboxTransport(tx).send(message(to, 'never'));
        throw new Error('operation failed');
      }),
    ).rejects.toThrow('operation failed');
    expect(await listMailbox(db, to)).toEqual([]);
  });

  it('refuses a message without a recipient', async () => {
    await expect(createOutboxTransport(db).send(message('  ', 'nobody'))).rejects.toThrow(/recipient/);
  });
});

describe('templates', () => {
  it('builds the verification email with the link in text, HTML and links', () => {
    const link = 'https://casino.test/verify-email?token=t0k3n&x=1';
    const mail = verificationEmail({ to: 'ada@example.com', firstName: 'Ada', link });
    expect(mail.to).toBe('ada@example.com');
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.links).toEqual([link]);
    expect(mail.text).toContain('Hi Ada,');
    expect(mail.text).toContain(link);
    expect(mail.html).toContain('href="https://casino.test/verify-email?token=t0k3n&amp;x=1"');
  });

  it('escapes a hostile first name in the HTML and keeps it on one line in the text', () => {
    const firstName = '<script>alert("x")</script> & \'Bob\'\nClick evil.example';
    const mail = verificationEmail({ to: 'bob@example.com', firstName, link: 'https://casino.test/v?token=1' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Hi &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Bob&#39; Click evil.example,');
    expect(mail.text.split('\n')[0]).toBe('Hi <script>alert("x")</script> & \'Bob\' Click evil.example,');
  });

  it('greets without a name when there is none', () => {
    const mail = passwordResetEmail({ to: 'x@example.com', firstName: '  ', link: 'https://casino.test/r?token=1', expiresInMinutes: 60 });
    expect(mail.text.startsWith('Hi,\n')).toBe(true);
  });

  it('builds the password reset email with its expiry', () => {
    const link = 'https://casino.test/reset-password?token=abc';
    const mail = passwordResetEmail({ to: 'ada@example.com', firstName: 'Ada', link, expiresInMinutes: 30 });
    expect(mail.subject).toBe('Reset your password');
    expect(mail.links).toEqual([link]);
    expect(mail.text).toContain('expires in 30 minutes');
    expect(mail.html).toContain('expires in 30 minutes');
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('refuses links that are not http(s) and nonsense expiries', () => {
    expect(() => verificationEmail({ to: 'a@example.com', firstName: 'A', link: 'javascript:alert(1)' })).toThrow(/http/);
    expect(() => verificationEmail({ to: 'a@example.com', firstName: 'A', link: '/relative' })).toThrow(/absolute/);
    expect(() =>
      passwordResetEmail({ to: 'a@example.com', firstName: 'A', link: 'https://casino.test/r', expiresInMinutes: 0 }),
    ).toThrow(/expiresInMinutes/);
  });
});

describe('SMTP transport', () => {
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
  });

  afterAll(async () => {
    await sink?.close();
  });

  it('delivers to the SMTP server and records the message as sent over SMTP', async () => {
    const to = address('smtp');
    const mail = verificationEmail({ to, firstName: 'Ada', link: 'https://casino.test/verify-email?token=smtp1' });
    await createSmtpTransport(sink.url, 'Casino <no-reply@casino.test>', db).send(mail);

    const delivered = sink.received.find((item) => item.recipients.includes(to));
    expect(delivered).toBeDefined();
    expect(delivered?.from).toBe('no-reply@casino.test');
    expect(delivered?.recipients).toEqual([to]);
    expect(delivered?.data).toMatch(/^Subject: Confirm your email address$/m);
    expect(delivered?.data).toMatch(new RegExp(`^To: ${to.replaceAll('.', '\\.')}$`, 'm'));
    expect(delivered?.data).toMatch(/^From: Casino <no-reply@casino\.test>$/m);
    expect(delivered?.data).toContain('multipart/alternative');

    expect(await outboxRows(to)).toEqual([expect.objectContaining({ delivered_via: 'smtp', error: null, links: mail.links })]);
    expect((await listMailbox(db, to)).map((entry) => entry.subject)).toEqual(['Confirm your email address']);
  });

  it('is chosen by createMailTransport when smtpUrl is set, the outbox otherwise', async () => {
    const viaSmtp = address('chosen-smtp');
    await createMailTransport({ smtpUrl: sink.url, mailFrom: 'no-reply@casino.test' }, db).send(message(viaSmtp, 'via smtp'));
    expect(sink.received.some((item) => item.recipients.includes(viaSmtp))).toBe(true);
    expect((await outboxRows(viaSmtp))[0]?.delivered_via).toBe('smtp');

    const viaOutbox = address('chosen-outbox');
    const before = sink.received.length;
    await createMailTransport({ smtpUrl: null, mailFrom: 'no-reply@casino.test' }, db).send(message(viaOutbox, 'via outbox'));
    expect(sink.received.length).toBe(before);
    expect((await outboxRows(viaOutbox))[0]?.delivered_via).toBe('outbox');
  });

  it('throws MailDeliveryError when the server refuses the recipient, after recording the error', async () => {
    const refusing = await startSmtpSink({ rejectRecipients: true });
    try {
      const to = address('refused');
      const error = await createSmtpTransport(refusing.url, 'no-reply@casino.test', db)
        .send(message(to, 'refused'))
        .then(
          () => null,
          (caught: unknown) => caught,
        );
      expect(error).toBeInstanceOf(MailDeliveryError);
      expect(error).toMatchObject({ name: 'MailDeliveryError', to, smtpCode: 'EENVELOPE' });
      const rows = await outboxRows(to);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.delivered_via).toBe('smtp');
      expect(rows[0]?.error).toMatch(/550/);
      // It never arrived, so the mailbox does not show it.
      expect(await listMailbox(db, to)).toEqual([]);
    } finally {
      await refusing.close();
    }
  });

  it('throws MailDeliveryError when the server cannot be reached', async () => {
    const gone = await startSmtpSink();
    const url = gone.url;
    await gone.close();
    const to = address('unreachable');
    await expect(createSmtpTransport(url, 'no-reply@casino.test', db).send(message(to, 'lost'))).rejects.toBeInstanceOf(MailDeliveryError);
    expect((await outboxRows(to))[0]?.error).toBeTruthy();
  });
});
