"""The client: one method per kind of answer, each a DataFrame of every page."""

import os

from .frames import frame
from .http import Transport

DEFAULT_URL = "http://localhost:3000/api"
DISEASES = ("covid", "mpox")
RECORD = ["id", "date", "country", "total_cases", "new_cases", "total_deaths", "new_deaths"]
VINTAGE = ["date", "country", "iso_code", "field", "value", "issued_at", "lag"]
CORRECTION = ["at", "date", "country", "field", "old", "new", "change", "source"]
CHANGE = ["cursor", "at", "actor", "change", *RECORD]


class Client:
    """Reads the API into pandas DataFrames.

    ``url`` is the API's root, ``/api`` included (default: ``$COVID_API_URL``, else
    ``http://localhost:3000/api``); ``token`` a client token (default: ``$COVID_API_TOKEN``; the
    public routes need none). A 429 or 503 is asked again after its ``Retry-After`` (each wait at
    most ``max_wait`` seconds), ``retries`` times at most; any other failure raises ``ApiError``.
    """

    def __init__(self, url=None, token=None, *, retries=5, max_wait=60.0, timeout=60.0):
        url = url or os.environ.get("COVID_API_URL") or DEFAULT_URL
        token = token if token is not None else os.environ.get("COVID_API_TOKEN")
        self._http = Transport(url, token or None, retries, max_wait, timeout)

    def series(self, disease, country=None, from_=None, to=None, *, metrics=None, period=None,
               as_of=None, lag=None, page_size=10000):
        """``/{disease}/series``: derived figures by place then date; every place without
        ``country``. ``as_of`` (an instant) and ``lag`` (whole days after each figure's date) read
        the figures as they stood then."""
        params = {"country": country, "from": from_, "to": to, "metrics": metrics,
                  "period": period, "as_of": as_of, "lag": lag,
                  # A place's series comes whole; every place comes in pages.
                  "limit": None if country else page_size}
        return self._frame(f"{_disease(disease)}/series", params, ["date", "country", "flags"])

    def data(self, disease, country=None, from_=None, to=None, *, as_of=None, page_size=10000):
        """``/{disease}/data``: the stored records, newest first (date, then id, descending)."""
        params = {"country": country, "from": from_, "to": to, "as_of": as_of,
                  "limit": page_size}
        return self._frame(f"{_disease(disease)}/data", params, RECORD)

    def vintages(self, disease, country=None, from_=None, to=None, *, fields=None,
                 issued_since=None, issued_until=None, page_size=10000):
        """``/{disease}/vintages``: one row per version of each stored figure, ``value`` missing
        for a deletion; by place, date, field, then ``issued_at``."""
        params = {"country": country, "from": from_, "to": to, "fields": fields,
                  "issued_since": issued_since, "issued_until": issued_until,
                  "limit": page_size}
        return self._frame(f"{_disease(disease)}/vintages", params, VINTAGE, "vintages")

    def corrections(self, disease, country=None, from_=None, to=None, *, since=None, until=None,
                    page_size=10000):
        """``/{disease}/corrections``: each figure changed after its first publication, in the
        order the changes were committed."""
        params = {"country": country, "from": from_, "to": to, "since": since, "until": until,
                  "limit": page_size}
        return self._frame(f"{_disease(disease)}/corrections", params, CORRECTION, "corrections")

    def changes(self, disease, *, since=None, after=None, page_size=10000):
        """``/{disease}/changes``: the change feed from its start (or ``since``/``after``), one
        row per change with the record's fields (missing for a deletion)."""
        params = {"since": since, "after": after, "limit": page_size}
        rows = []
        for page in self._http.pages(f"{_disease(disease)}/changes", params, "changes"):
            for change in page:
                record = change.get("record") or {}
                rows.append({**{k: v for k, v in change.items() if k != "record"},
                             **{k: record.get(k) for k in RECORD if k != "id"}})
        return frame(rows, CHANGE)

    def population(self):
        """``/population``: the population table, by code then year."""
        return self._frame("population", {},
                           ["country", "iso3", "iso2", "year", "population", "source"])

    def regions(self):
        """``/regions``: one row per region and member country."""
        rows = []
        for page in self._http.pages("regions", {}):
            for region in page:
                members = region.get("members", region.get("countries")) or []
                about = {("region" if k == "name" else k): v for k, v in region.items()
                         if not isinstance(v, (list, dict))}
                rows.extend({**about, **member} for member in members)
        return frame(rows, ["region", "source", "country", "iso2", "iso3"])

    def _frame(self, path, params, columns, rows_key=None):
        rows = []
        for page in self._http.pages(path, params, rows_key):
            rows.extend(page)
        return frame(rows, columns)


def _disease(disease):
    if disease not in DISEASES:
        raise ValueError(f"disease: covid or mpox, not {disease!r}")
    return disease
