import nodemailer from 'nodemailer';
import type { Config } from '../config.ts';
import type { Queryable } from '../db/db.ts';

/** One email, as the domain composes it. Links are absolute URLs built by the caller (from config.publicUrl). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The actionable links in the message, kept apart so the simulator mailbox and tests need not parse bodies. */
  links: string[];
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
}

/** The SMTP server could not be reached or refused the message. The attempt is recorded in mail_outbox first. */
export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';
  constructor(
    readonly to: string,
    message: string,
    /** Nodemailer's error code (ECONNECTION, EENVELOPE, ETIMEDOUT, ...) when it gave one. */
    readonly smtpCode: string | null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

type DeliveredVia = 'outbox' | 'smtp';

async function recordMessage(db: Queryable, message: MailMessage, via: DeliveredVia, error: string | null): Promise<void> {
  await db.query(
    `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, links, delivered_via, error)
     VALUES ($1, $2, $3, $4, $5::text[], $6, $7)`,
    [message.to.trim(), message.subject, message.text, message.html ?? null, message.links, via, error],
  );
}

function assertRecipient(message: MailMessage): void {
  if (message.to.trim() === '') throw new Error('Mail message needs a recipient');
}

/**
 * The default transport: the message is delivered by writing it to mail_outbox, where the simulator mailbox
 * reads it. Pass a transaction to make the email part of the operation that sends it.
 */
export function createOutboxTransport(db: Queryable): MailTransport {
  return {
    async send(message) {
      assertRecipient(message);
      await recordMessage(db, message, 'outbox', null);
    },
  };
}

function smtpErrorCode(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return null;
}

/**
 * Sends through an SMTP server (smtp://user:pass@host:587, smtps://... for implicit TLS) and records each
 * attempt in mail_outbox with delivered_via 'smtp', so operators can audit what went out and what failed.
 */
export function createSmtpTransport(smtpUrl: string, from: string, db: Queryable): MailTransport {
  // Nodemailer's defaults wait up to two minutes to connect and ten on a silent socket; a request
  // sending a verification email should fail well before a client gives up on it.
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    async send(message) {
      assertRecipient(message);
      try {
        await transporter.sendMail({
          from,
          to: message.to.trim(),
          subject: message.subject,
          text: message.text,
          ...(message.html !== undefined ? { html: message.html } : {}),
        });
      } catch (error) {
        const description = error instanceof Error ? error.message : String(error);
        await recordMessage(db, message, 'smtp', description);
        throw new MailDeliveryError(message.to, `Mail to ${message.to} was not delivered: ${description}`, smtpErrorCode(error), {
          cause: error,
        });
      }
      await recordMessage(db, message, 'smtp', null);
    },
  };
}

/** SMTP when config.smtpUrl is set, otherwise the outbox (the simulator's mailbox). */
export function createMailTransport(config: Pick<Config, 'smtpUrl' | 'mailFrom'>, db: Queryable): MailTransport {
  return config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom, db) : createOutboxTransport(db);
}

export interface MailboxEntry {
  id: number;
  to: string;
  subject: string;
  text: string;
  links: string[];
  /** ISO 8601, ready for a JSON response. */
  sentAt: string;
}

type MailboxRow = {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  links: string[];
  sent_at: Date;
};

/**
 * The messages delivered to an address (case-insensitive), newest first. Attempts that failed over SMTP
 * never arrived, so they are not in the mailbox (they stay in mail_outbox with their error).
 */
export async function listMailbox(db: Queryable, to: string, limit = 50): Promise<MailboxEntry[]> {
  const boundedLimit = Math.min(Math.max(Math.trunc(limit), 1), 500);
  const rows = await db.query<MailboxRow>(
    `SELECT id, to_address, subject, text_body, links, sent_at
       FROM mail_outbox
      WHERE lower(to_address) = lower($1) AND error IS NULL
      ORDER BY sent_at DESC, id DESC
      LIMIT $2`,
    [to.trim(), boundedLimit],
  );
  return rows.map((row) => ({
    id: row.id,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    links: row.links,
    sentAt: new Date(row.sent_at).toISOString(),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Templates. Names come from players and are escaped in HTML; links are checked to be http(s) so a bad
// caller cannot put a javascript: URL behind a button.

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function checkedLink(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new Error(`Email link must be an absolute URL, got "${link}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Email link must be http(s), got "${link}"`);
  return link;
}

function greeting(firstName: string): string {
  // Line breaks in a name must not let it write the rest of the plain-text body.
  const name = firstName.replace(/\s+/g, ' ').trim();
  return name ? `Hi ${name},` : 'Hi,';
}

function htmlLayout(options: { title: string; greeting: string; paragraphs: string[]; button: string; link: string; footer: string }): string {
  const link = escapeHtml(options.link);
  return [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(options.title)}</title></head>`,
    '<body style="font-family: Arial, Helvetica, sans-serif; color: #1a1a1a; line-height: 1.5;">',
    `<p>${escapeHtml(options.greeting)}</p>`,
    ...options.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    `<p><a href="${link}" style="display: inline-block; padding: 10px 18px; background: #2563eb; color: #ffffff; text-decoration: none; border-radius: 4px;">${escapeHtml(options.button)}</a></p>`,
    `<p style="font-size: 12px; color: #555555;">If the button does not work, copy this address into your browser:<br><a href="${link}">${link}</a></p>`,
    `<p style="font-size: 12px; color: #555555;">${escapeHtml(options.footer)}</p>`,
    '</body>',
    '</html>',
  ].join('\n');
}

export function verificationEmail(input: { to: string; firstName: string; link: string }): MailMessage {
  const link = checkedLink(input.link);
  const subject = 'Confirm your email address';
  const intro = 'Thanks for signing up. Please confirm your email address to finish creating your account.';
  const footer = 'If you did not create an account, you can ignore this email.';
  return {
    to: input.to,
    subject,
    text: [greeting(input.firstName), '', intro, '', `Confirm your email: ${link}`, '', footer].join('\n'),
    html: htmlLayout({ title: subject, greeting: greeting(input.firstName), paragraphs: [intro], button: 'Confirm email', link, footer }),
    links: [link],
  };
}

export function passwordResetEmail(input: { to: string; firstName: string; link: string; expiresInMinutes: number }): MailMessage {
  const link = checkedLink(input.link);
  if (!Number.isInteger(input.expiresInMinutes) || input.expiresInMinutes <= 0) {
    throw new Error(`expiresInMinutes must be a positive integer, got ${input.expiresInMinutes}`);
  }
  const minutes = input.expiresInMinutes === 1 ? '1 minute' : `${input.expiresInMinutes} minutes`;
  const subject = 'Reset your password';
  const intro = 'We received a request to reset the password of your account.';
  const expiry = `The link works once and expires in ${minutes}.`;
  const footer = 'If you did not ask for a new password, you can ignore this email; your password stays the same.';
  return {
    to: input.to,
    subject,
    text: [greeting(input.firstName), '', intro, '', `Choose a new password: ${link}`, '', expiry, '', footer].join('\n'),
    html: htmlLayout({ title: subject, greeting: greeting(input.firstName), paragraphs: [intro, expiry], button: 'Choose a new password', link, footer }),
    links: [link],
  };
}
