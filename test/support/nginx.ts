import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's nginx (the pre-test step installs it when missing); PREREQ_NGINX as in that step. */
export const NGINX = process.env.PREREQ_NGINX ?? '/usr/sbin/nginx';

export interface Nginx {
  /** The loopback port nginx listens on. */
  port: number;
  stop(): Promise<void>;
}

/** A loopback port nothing listens on now (the caller binds it soon after; it may race). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (yes: boolean) => {
      socket.destroy();
      resolve(yes);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A reverse proxy as deployments put one: it appends the peer's address to X-Forwarded-For. With
 * several upstreams it balances them round-robin, skips one that refuses connections for
 * `fail_timeout`, and passes a request on to the next one only on errors or timeouts (never a
 * POST it has already sent). X-Upstream and X-Upstream-Status name every instance tried.
 */
function config(dir: string, port: number, upstreamPorts: number[]): string {
  const servers = upstreamPorts
    .map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=1s;`)
    .join('\n');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream api {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://api;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Host $host;
      proxy_http_version 1.1;
      proxy_connect_timeout 1s;
      proxy_next_upstream error timeout;
      add_header X-Upstream $upstream_addr always;
      add_header X-Upstream-Status $upstream_status always;
    }
  }
}
`;
}

/**
 * Starts a real nginx in the foreground in front of one upstream port or several (balanced), with
 * its config, pid, logs and temporary files in a folder of its own; `stop` ends it by its pid.
 * Fails with one line saying how to install nginx when it is missing.
 */
export async function startNginx(upstream: number | number[]): Promise<Nginx> {
  const upstreamPorts = Array.isArray(upstream) ? upstream : [upstream];
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is missing at ${NGINX} (the trusted-proxy and load-balancer tests run it in front of the API); ` +
        'install it as root with: apt-get update && apt-get install -y nginx',
    );
  }
  // The free port may be taken by another process before nginx binds it: try another one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(upstreamPorts);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startOnFreePort(upstreamPorts: number[]): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
  // Run as root, nginx's workers drop to an unprivileged user that must reach the temp folders.
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), config(dir, port, upstreamPorts));
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let running = true;
  const ended = new Promise<void>((resolve) => {
    const end = () => {
      running = false;
      resolve();
    };
    child.once('exit', end);
    child.once('error', (error) => {
      stderr += error.message;
      end();
    });
  });
  const stop = async () => {
    // SIGTERM: nginx's fast shutdown, the master stops its worker and exits.
    if (running) child.kill('SIGTERM');
    await ended;
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (!running) break;
    if (await accepts(port)) return { port, stop };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stop();
  throw new Error(`nginx did not start on 127.0.0.1:${port}: ${stderr.trim()}`);
}
