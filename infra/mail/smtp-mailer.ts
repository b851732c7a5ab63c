import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { Mailer } from './port.ts';

/** Messages taking longer than this to hand to the server fail the attempt (it is retried). */
const SEND_TIMEOUT_MS = 60_000;

/**
 * SMTP through nodemailer, configured by `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://...:465`; the URL's
 * query may carry nodemailer options). Connections are not pooled: reports are few, and a fresh connection per
 * message keeps a broken one from failing the next.
 */
export function createSmtpMailer(url: string): Mailer {
  // Loaded here, not at the top: only a service with SMTP_URL sends mail, and every start imported it.
  const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof Nodemailer;
  const transport = nodemailer.createTransport(url, { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: SEND_TIMEOUT_MS } as never);
  return {
    async send(message) {
      await transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        messageId: message.messageId,
        headers: message.headers,
        attachments: message.attachments.map((attachment) => ({ filename: attachment.filename, content: Buffer.from(attachment.content), contentType: attachment.contentType })),
      });
    },
    close() {
      transport.close();
    },
  };
}
