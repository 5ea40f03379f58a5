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

async function freePort(): Promise<number> {
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

/** A reverse proxy as deployments put one: it appends the peer's address to X-Forwarded-For. */
function config(dir: string, port: number, upstreamPort: number): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 64; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/client-body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://127.0.0.1:${upstreamPort};
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header Host $host;
      proxy_http_version 1.1;
    }
  }
}
`;
}

/**
 * Starts a real nginx in the foreground in front of `upstreamPort`, with its config, pid, logs and
 * temporary files in a folder of its own; `stop` ends it by its pid. Fails with one line saying how
 * to install nginx when it is missing.
 */
export async function startNginx(upstreamPort: number): Promise<Nginx> {
  if (!existsSync(NGINX)) {
    throw new Error(
      `nginx is missing at ${NGINX} (the trusted-proxy tests run it in front of the API); ` +
        'install it as root with: apt-get update && apt-get install -y nginx',
    );
  }
  // The free port may be taken by another process before nginx binds it: try another one.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePort(upstreamPort);
    } catch (error) {
      if (attempt === 3 || !String(error).includes('Address already in use')) throw error;
    }
  }
}

async function startOnFreePort(upstreamPort: number): Promise<Nginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-test-'));
  // Run as root, nginx's workers drop to an unprivileged user that must reach the temp folders.
  chmodSync(dir, 0o755);
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), config(dir, port, upstreamPort));
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
