// Types for the parts of `sip` 0.0.6 (kirm/sip.js, plain JavaScript) that the user agent uses.
declare module 'sip' {
  export interface SipUri {
    schema?: string;
    user?: string;
    password?: string;
    host: string;
    port?: number;
    params: Record<string, string | null | undefined>;
    headers?: Record<string, string>;
  }
  export interface NameAddr {
    name?: string;
    uri: string;
    params: Record<string, string | null | undefined>;
  }
  export interface Via {
    version?: string;
    protocol?: string;
    host?: string;
    port?: number;
    params: Record<string, string | number | null | undefined>;
  }
  export interface SipHeaders {
    via?: Via[];
    from?: NameAddr;
    to?: NameAddr;
    'call-id'?: string;
    cseq?: { seq: number; method: string };
    contact?: NameAddr[] | '*';
    route?: NameAddr[];
    'record-route'?: NameAddr[];
    'max-forwards'?: number | string;
    'content-type'?: string;
    'content-length'?: number;
    [name: string]: unknown;
  }
  export interface SipMessage {
    method?: string;
    uri?: string;
    status?: number;
    reason?: string;
    version?: string;
    headers: SipHeaders;
    content?: string;
  }
  export interface Remote {
    protocol: string;
    address: string;
    port: number;
  }
  export interface StackOptions {
    address?: string;
    port?: number;
    publicAddress?: string;
    hostname?: string;
    udp?: boolean;
    tcp?: boolean;
    rport?: boolean;
    logger?: { send?(message: SipMessage, target: unknown): void; recv?(message: SipMessage, remote: Remote): void; error?(error: unknown): void };
  }
  export interface Stack {
    send(message: SipMessage, callback?: (response: SipMessage) => void): void;
    destroy(): void;
    hostname(): string;
  }
  export function create(options: StackOptions, onRequest: (request: SipMessage, remote: Remote) => void): Stack;
  export function makeResponse(request: SipMessage, status: number, reason?: string): SipMessage;
  export function parseUri(uri: string): SipUri;
  export function stringifyUri(uri: SipUri | string): string;
  export function stringify(message: SipMessage): string;
  export function generateBranch(): string;
  const sip: {
    create: typeof create;
    makeResponse: typeof makeResponse;
    parseUri: typeof parseUri;
    stringifyUri: typeof stringifyUri;
    stringify: typeof stringify;
    generateBranch: typeof generateBranch;
  };
  export default sip;
}

declare module 'sip/digest.js' {
  import type { SipMessage } from 'sip';
  export interface DigestContext {
    [key: string]: unknown;
  }
  export function signRequest(context: DigestContext, request: SipMessage, response?: SipMessage, credentials?: { user: string; password: string }): DigestContext | null;
  export function challenge(context: DigestContext, response: SipMessage): SipMessage;
  export function authenticateRequest(context: DigestContext, request: SipMessage, credentials: { user: string; password: string }): boolean;
  const digest: { signRequest: typeof signRequest; challenge: typeof challenge; authenticateRequest: typeof authenticateRequest };
  export default digest;
}
