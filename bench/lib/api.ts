// JSON calls to the service's API for the benchmarks that drive it over HTTP.

/** `route` is a path, or an absolute URL (a `next` link); throws on a non-2xx answer. */
export async function callApi<T>(base: string, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(route.startsWith('http') ? route : `${base}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${route}: HTTP ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
