/** Sending e-mail (report delivery). The adapter is SMTP (smtp-mailer.ts); tests use a real SMTP server on loopback. */
export interface MailMessage {
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** A stable Message-ID: a retried send carries the same one, so a receiver can drop a duplicate. */
  messageId: string;
  headers: Record<string, string>;
  attachments: Array<{ filename: string; content: Uint8Array; contentType: string }>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}
