import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by `main.ts`, before the application allocates anything: V8's allocation-site
 * pretenuring off (objects are not born in the old generation because their allocation site's
 * objects survived before).
 *
 * Why: answers that finish within one socket callback (the public answers kept in memory, and the
 * bare node:http baseline alike) leave alive, at each scavenge, mostly the objects that Node's
 * HTTP and stream internals defer to the next tick. V8 then tenures those allocation sites (seen
 * with `--trace-pretenuring` and `--trace-deopt`: Readable.push, parserOnHeadersComplete,
 * resOnFinish...). When the traffic turns to routes that wait on the database, the same sites
 * keep allocating short-lived objects straight into the old generation: scavenges went from 0.7
 * to 2.9 ms each and the MariaDB token list from 34 to 48 to 53 µs of CPU per request. With this
 * flag: 38 to 41 µs, the public routes unchanged (README, Performance, eighth round).
 */
setFlagsFromString('--no-allocation-site-pretenuring');
