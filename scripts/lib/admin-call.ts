// A script's calls to a running server's operator API (npm run master, npm run operator):
// Bearer token, JSON both ways, and a refusal thrown with its result code and message.

export type AdminBody = Record<string, unknown>;
export type AdminCall = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<AdminBody>;

export const adminCaller =
  (url: string, token: string): AdminCall =>
  async (method, path, body) => {
    const r = await fetch(`${url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await r.json()) as AdminBody;
    if (answer['resultCode'] !== 0)
      throw new Error(`${method} ${path}: ${String(answer['resultCode'])} ${String(answer['resultMessage'])}`);
    return answer;
  };
