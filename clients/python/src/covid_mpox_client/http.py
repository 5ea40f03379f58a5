"""HTTP over the standard library: JSON answers, bounded retries, cursor pages."""

import email.utils
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request

from .errors import ApiError

# Statuses that say "later": the rate limit and a database briefly out of reach.
RETRIED = (429, 503)
_NEXT = re.compile(r'<([^>]*)>\s*;[^,]*\brel="?next"?', re.IGNORECASE)


def next_link(header):
    """The URL of ``Link: <...>; rel="next"``, or None."""
    match = _NEXT.search(header or "")
    return match.group(1) if match else None


def retry_delay(value, default=1.0):
    """Seconds to wait from a ``Retry-After`` value: seconds or an HTTP date."""
    if not value:
        return default
    try:
        return max(0.0, float(value))
    except ValueError:
        moment = email.utils.parsedate_to_datetime(value)
        return max(0.0, moment.timestamp() - time.time()) if moment else default


class Transport:
    """GETs JSON from the API with a token, retrying 429 and 503 after ``Retry-After``."""

    def __init__(self, base_url, token, retries, max_wait, timeout, sleep=time.sleep):
        self.base_url = base_url.rstrip("/") + "/"
        self.token = token
        self.retries = retries
        self.max_wait = max_wait
        self.timeout = timeout
        self.sleep = sleep

    def url(self, path, params=None):
        """The absolute URL of ``path`` (relative to the base URL, or a root path from ``Link``)."""
        if path.startswith("/"):
            url = urllib.parse.urljoin(self.base_url, path)
        else:
            url = self.base_url + path
        query = {k: _param(v) for k, v in (params or {}).items() if v is not None}
        return url + ("?" + urllib.parse.urlencode(query) if query else "")

    def get(self, url):
        """The answer's JSON body and headers; ApiError for any other outcome."""
        headers = {"Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        for attempt in range(self.retries + 1):
            request = urllib.request.Request(url, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                    return json.loads(answer.read().decode("utf-8")), answer.headers
            except urllib.error.HTTPError as error:
                body = error.read()
                if error.code in RETRIED and attempt < self.retries:
                    wait = retry_delay(error.headers.get("Retry-After"))
                    self.sleep(min(wait, self.max_wait))
                    continue
                raise _api_error(error.code, body) from None
            except (urllib.error.URLError, OSError) as error:
                reason = getattr(error, "reason", error)
                raise ApiError(None, f"the API could not be reached: {reason}") from None
        raise AssertionError("unreachable")

    def pages(self, path, params, rows_key=None):
        """Yields each page's rows, following ``Link: rel="next"`` or the body's ``next``.

        A list page is a JSON array with its ``Link``; a feed page (corrections, changes) is an
        object whose ``rows_key`` holds the rows and whose ``next`` is the cursor to ask ``after``.
        """
        url = self.url(path, params)
        while url:
            body, headers = self.get(url)
            if isinstance(body, list):
                rows, cursor = body, None
            else:
                lists = [v for v in body.values() if isinstance(v, list)]
                rows = body.get(rows_key) if rows_key in body else (lists[0] if lists else [])
                cursor = body.get("next")
            yield rows
            link = next_link(headers.get("Link"))
            if not rows:
                break
            if link:
                url = self.url(link)
            elif cursor:
                url = self.url(path, {**params, "after": cursor})
            else:
                url = None


def _param(value):
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _api_error(status, body):
    try:
        parsed = json.loads(body.decode("utf-8"))
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and "error" in parsed:
        return ApiError(status, str(parsed["error"]), parsed.get("details"))
    return ApiError(status, f"HTTP {status}")
