import type { Socket } from 'node:net';
import { errorBody } from './errors.ts';

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers over its 16 KB limit, bytes that are not
 * HTTP): Node answers those with a bare status line and no body. This answers them in the error envelope instead,
 * like every other error, then closes the connection (what follows on it cannot be trusted to be a request).
 */
export function answerMalformedRequest(error: Error & { code?: string }, socket: Socket): void {
  // A reset peer is gone; a socket with a response under way (Node keeps it on `_httpMessage`) must not get a second.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, body] = tooLarge
    ? [431, 'Request Header Fields Too Large', errorBody('headers_too_large', 'The request line and headers are larger than the server accepts (16 KB).', { limit_bytes: 16_384 })]
    : [400, 'Bad Request', errorBody('invalid_parameter', 'The request is not well-formed HTTP/1.1.', { field: 'request', provided: null, expected: 'a well-formed HTTP/1.1 request' })];
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
  );
}
