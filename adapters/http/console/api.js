// The operator API as the console calls it: the Bearer token held in this page's
// memory only (never in storage a script or another tab could read later: a reload or
// a closed tab signs out), every answer read as the envelope, and every refusal turned
// into an ApiError that says what went wrong.
let held = null;

export const token = {
  get: () => held,
  set: (value) => {
    held = value;
  },
  clear: () => {
    held = null;
  },
};

export class ApiError extends Error {
  constructor(status, resultCode, message) {
    super(message);
    this.status = status;
    this.resultCode = resultCode;
  }
}

/** An operator API call: method, path (with its query), and for a POST the JSON body. Resolves to the answer, or throws ApiError. */
export const api = async (method, path, body) => {
  const headers = { Authorization: `Bearer ${token.get() ?? ''}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, null, `The server could not be reached (${e instanceof Error ? e.message : String(e)}).`);
  }
  let answer;
  try {
    answer = await res.json();
  } catch {
    throw new ApiError(res.status, null, `The server answered HTTP ${res.status} with something that is not JSON.`);
  }
  if (answer.resultCode !== 0) {
    const retry = res.headers.get('Retry-After');
    const message = answer.resultMessage || `The server refused the request (HTTP ${res.status}).`;
    throw new ApiError(res.status, answer.resultCode ?? null, retry ? `${message} Try again in ${retry} s.` : message);
  }
  return answer;
};

/** An error in words, with the HTTP status and result code the operator may quote. */
export const describe = (e) => {
  if (!(e instanceof ApiError))
    return `Something went wrong in the console: ${e instanceof Error ? e.message : String(e)}`;
  const codes = [
    e.status ? `HTTP ${e.status}` : null,
    e.resultCode !== null && e.resultCode !== undefined ? `result code ${e.resultCode}` : null,
  ].filter(Boolean);
  return codes.length > 0 ? `${e.message} (${codes.join(', ')})` : e.message;
};
