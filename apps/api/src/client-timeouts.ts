/**
 * How long a client may take: to send its request line and headers, its whole request (body
 * included; 5 MB at 85 KB/s), and, while a streamed list is sent, without any byte going either
 * way (a client that stopped reading). Beyond: 408 for the first two (JSON,
 * `clientErrorHandler`), the connection closed for the third. Node checks the first two every
 * 30 s; the third fires after one to two times its value, as observed. Idle keep-alive
 * connections keep Fastify's 72 s.
 */
export const CLIENT_TIMEOUTS = { headersMs: 20_000, requestMs: 60_000, idleMs: 30_000 };
