// The request hash the server checks (WIRE.md, adapters/http/app.ts checkHash):
// lowercase hex SHA-256 of [sessionId + " "] + path-with-query + [" " + body] + " " + salt,
// over the exact strings sent. Web Crypto, so the client needs no Node module of its own.

/** What is hashed: the session id (when the request carries one), the path from `/api/` with the query as sent, the raw body. */
export interface HashInput {
  readonly sessionId?: string;
  readonly pathWithQuery: string;
  /** The raw body as sent; absent or empty for a GET. */
  readonly body?: string;
  readonly salt: string;
}

export const requestHashText = (p: HashInput): string =>
  `${p.sessionId ? `${p.sessionId} ` : ''}${p.pathWithQuery}${p.body ? ` ${p.body}` : ''} ${p.salt}`;

export const sha256Hex = async (text: string): Promise<string> => {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let out = '';
  for (const b of digest) out += b.toString(16).padStart(2, '0');
  return out;
};

/** The X-STAR-REQUESTHASH value of a request. */
export const requestHash = (p: HashInput): Promise<string> => sha256Hex(requestHashText(p));
