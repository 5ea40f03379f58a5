#!/usr/bin/env bash
# What `npm test` needs beyond `npm ci`: the local MariaDB and Redis (several suites use them),
# Debian's chromium (the browser tests), nginx (a real proxy in front of the API; the tests
# start their own, never the system service) and python3-pandas with python3-pytest (the Python
# client's tests). Starts what is down and installs the packages when
# it can (root with apt-get, as on the development and CI machines); otherwise stops at once with
# one line naming what is missing and how to get it. The checks are variables so a test can point
# them elsewhere.
set -uo pipefail

CHROMIUM="${PREREQ_CHROMIUM:-/usr/bin/chromium}"
NGINX="${PREREQ_NGINX:-/usr/sbin/nginx}"
PYTHON_CHECK="${PREREQ_PYTHON_CHECK:-/usr/bin/python3 -c 'import pandas, pytest'}"
INSTALL="${PREREQ_INSTALL:-auto}" # auto: install packages when root with apt-get; never: only report
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

# Debian's packages $1 are installed (root with apt-get) when the check $2 fails, else reported
# with $3, which says what is missing and what the tests do with it.
install() { # packages, check, what is missing
  answers "$2" && return 0
  how="apt-get update && apt-get install -y $1"
  if [ "$INSTALL" = auto ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "npm test: installing Debian's $1: $how" >&2
    # shellcheck disable=SC2086 # $1 is a list of package names
    { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $1; } >/dev/null 2>&1 ||
      missing "installing $1 failed; run as root: $how"
    answers "$2" || missing "still after $how: $3"
  else
    missing "$3; install it as root with: $how"
  fi
}

# A Debian package whose program is missing.
package() { # package, program, what the tests do with it
  install "$1" "[ -x '$2' ]" "Debian's $1 is missing at $2 ($3)"
}

package chromium "$CHROMIUM" "the browser tests drive it"
package nginx "$NGINX" "the trusted-proxy and load-balancer tests run it in front of the API"
install "python3-pandas python3-pytest" "$PYTHON_CHECK" \
  "python3 cannot import pandas and pytest (the Python client's tests use them)"
