#!/usr/bin/env bash
# What `npm test` needs beyond `npm ci`: the local MariaDB and Redis (several suites use them) and
# Debian's chromium (the browser tests). Starts what is down and installs chromium when it can
# (root with apt-get, as on the development and CI machines); otherwise stops at once with one
# line naming what is missing and how to get it. The checks are variables so a test can point
# them elsewhere.
set -uo pipefail

CHROMIUM="${PREREQ_CHROMIUM:-/usr/bin/chromium}"
INSTALL="${PREREQ_INSTALL:-auto}" # auto: install chromium when root with apt-get; never: only report
MARIADB_CHECK="${PREREQ_MARIADB_CHECK:-mariadb -uroot -h127.0.0.1 -e 'SELECT 1'}"
MARIADB_START="${PREREQ_MARIADB_START:-start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd}"
REDIS_CHECK="${PREREQ_REDIS_CHECK:-redis-cli -h 127.0.0.1 ping}"
REDIS_START="${PREREQ_REDIS_START:-redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save '' --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log}"
WAIT_SECONDS="${PREREQ_WAIT_SECONDS:-60}"

missing() {
  echo "npm test: $1" >&2
  exit 1
}

answers() { eval "$1" >/dev/null 2>&1; }

# A service that does not answer is started with the machine's own command, then waited for.
service() { # name, check, start
  answers "$2" && return 0
  if [ "$(id -u)" = 0 ] && [ -n "$3" ] && eval "$3" >/dev/null 2>&1; then
    for _ in $(seq 1 "$WAIT_SECONDS"); do
      answers "$2" && return 0
      sleep 1
    done
  fi
  missing "$1 does not answer and could not be started here; start it with: $3"
}

service "MariaDB (127.0.0.1:3306, root)" "$MARIADB_CHECK" "$MARIADB_START"
service "Redis (127.0.0.1:6379)" "$REDIS_CHECK" "$REDIS_START"

if [ ! -x "$CHROMIUM" ]; then
  how="apt-get update && apt-get install -y chromium"
  if [ "$INSTALL" = auto ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "npm test: installing Debian's chromium for the browser tests ($how)" >&2
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } >/dev/null 2>&1 ||
      missing "installing chromium failed; run as root: $how"
    [ -x "$CHROMIUM" ] || missing "chromium is still missing at $CHROMIUM after: $how"
  else
    missing "Debian's chromium is missing at $CHROMIUM (the browser tests drive it); install it as root with: $how"
  fi
fi
