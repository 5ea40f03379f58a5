import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = join(__dirname, '../../../scripts/test-prerequisites.sh');

/** Runs the pre-test step with some of its checks pointed elsewhere. */
function prerequisites(env: Record<string, string>) {
  const result = spawnSync('bash', [SCRIPT], {
    env: {
      PATH: process.env.PATH ?? '',
      PREREQ_MARIADB_CHECK: 'true',
      PREREQ_REDIS_CHECK: 'true',
      PREREQ_CHROMIUM: process.execPath, // an executable that exists
      PREREQ_NGINX: process.execPath,
      PREREQ_PYTHON_CHECK: 'true',
      ...env,
    },
    encoding: 'utf8',
  });
  return { code: result.status, stderr: result.stderr };
}

describe('the pre-test step (scripts/test-prerequisites.sh)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'prereq-test-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('passes silently when everything is there', () => {
    expect(prerequisites({})).toEqual({ code: 0, stderr: '' });
  });

  it('stops with one line naming a missing chromium and the command that installs it', () => {
    const missing = join(dir, 'chromium');
    expect(prerequisites({ PREREQ_CHROMIUM: missing, PREREQ_INSTALL: 'never' })).toEqual({
      code: 1,
      stderr: `npm test: Debian's chromium is missing at ${missing} (the browser tests drive it); install it as root with: apt-get update && apt-get install -y chromium\n`,
    });
  });

  it('stops with one line naming a missing nginx and the command that installs it', () => {
    const missing = join(dir, 'nginx');
    expect(prerequisites({ PREREQ_NGINX: missing, PREREQ_INSTALL: 'never' })).toEqual({
      code: 1,
      stderr: `npm test: Debian's nginx is missing at ${missing} (the trusted-proxy and load-balancer tests run it in front of the API); install it as root with: apt-get update && apt-get install -y nginx\n`,
    });
  });

  it("stops with one line when python3 lacks pandas or pytest, naming Debian's packages", () => {
    expect(prerequisites({ PREREQ_PYTHON_CHECK: 'false', PREREQ_INSTALL: 'never' })).toEqual({
      code: 1,
      stderr:
        "npm test: python3 cannot import pandas and pytest (the Python client's tests use them); install it as root with: apt-get update && apt-get install -y python3-pandas python3-pytest\n",
    });
  });

  it('stops with one line when a service is down and cannot be started', () => {
    const result = prerequisites({ PREREQ_REDIS_CHECK: 'false', PREREQ_REDIS_START: 'false' });
    expect(result).toEqual({
      code: 1,
      stderr:
        'npm test: Redis (127.0.0.1:6379) does not answer and could not be started here; start it with: false\n',
    });
  });

  const asRoot = process.getuid?.() === 0 ? it : it.skip;
  asRoot('starts a service that is down with its start command, then goes on', () => {
    const started = join(dir, 'started');
    const result = prerequisites({
      PREREQ_MARIADB_CHECK: `test -f ${started}`,
      PREREQ_MARIADB_START: `touch ${started}`,
    });
    expect(result).toEqual({ code: 0, stderr: '' });
    expect(existsSync(started)).toBe(true);
  });
});
