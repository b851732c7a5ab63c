import type { RegisterWebhook } from '../domain/webhook.ts';
import type { SecretBox } from '../infra/crypto/secret-box.ts';

/**
 * The RegisterWebhook command for a webhook whose signing secret is given in plain text: the secret is sealed
 * (bound to the webhook id) before it reaches the command, so only the sealed form is ever recorded.
 */
export function registerWebhookCommand(
  secrets: SecretBox,
  data: Omit<RegisterWebhook['data'], 'secret' | 'secret_sealed'> & { secret: string | null },
): RegisterWebhook {
  return {
    type: 'RegisterWebhook',
    data: { ...data, secret: data.secret === null ? null : secrets.seal(data.secret, data.webhook_id), secret_sealed: true },
  };
}
