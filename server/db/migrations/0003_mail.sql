-- Every email the server sends. In the default (simulator) mode this table is the delivery itself and the
-- simulator mailbox reads it; with SMTP configured each message is still recorded here for audit, with the
-- delivery error when the SMTP server refused it.
CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text,
  links text[] NOT NULL DEFAULT '{}',
  sent_at timestamptz NOT NULL DEFAULT now(),
  delivered_via text NOT NULL CHECK (delivered_via IN ('outbox', 'smtp')),
  error text
);
CREATE INDEX mail_outbox_recipient ON mail_outbox (lower(to_address), sent_at DESC, id DESC);
