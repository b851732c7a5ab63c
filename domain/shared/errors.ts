/**
 * A refusal by the domain, with the machine code the API reports (`invalid_state`, `invalid_parameter`,
 * `resource_not_found`, `number_suppressed`, ...) and details for the client. The HTTP layer maps codes to statuses.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function invalidState(message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError('invalid_state', message, details);
}

export function notFound(resourceType: string, id: string): DomainError {
  return new DomainError('resource_not_found', `No ${resourceType} with id ${id}.`, { resource_type: resourceType, id });
}

/** The command was already carried out (same deterministic id): callers that retry treat it as success. */
export function alreadyDone(message: string, details: Record<string, unknown> = {}): DomainError {
  return new DomainError('already_exists', message, details);
}
