"""The tests read a live API loaded with the fixtures by test/slow/clients (COVID_API_URL,
COVID_API_TOKEN); without COVID_API_URL the live tests are skipped."""

import json
import os
import pathlib
import urllib.request

import pandas as pd
import pytest

from covid_mpox_client import ApiError, Client

FIXTURES = pathlib.Path(__file__).resolve().parents[3] / "test" / "fixtures"


@pytest.fixture(scope="session")
def client():
    if not os.environ.get("COVID_API_URL"):
        pytest.skip("COVID_API_URL is not set: no live API to read")
    return Client()


@pytest.fixture(scope="session")
def stored():
    """The store as the fixtures left it: the first file, then its revised copy."""
    return read_trimmed(FIXTURES / "clients-covid-revised.csv")


@pytest.fixture(scope="session")
def first_file():
    return read_trimmed(FIXTURES / "clients-covid.csv")


def read_trimmed(path):
    # keep_default_na=False: a place or code spelled "NA" (Namibia's) is text, not missing.
    df = pd.read_csv(path, keep_default_na=False)
    # The service stores each country under its canonical name.
    df["country"] = df["country"].replace({"Korea, South": "South Korea"})
    df["date"] = pd.to_datetime(df["date"], format="%Y-%m-%d")
    for name in ("total_cases", "new_cases", "total_deaths", "new_deaths"):
        df[name] = df[name].astype("Int64")
    return df


def route_exists(client, path):
    """False when the live API answers 404 (a route still to come), True otherwise."""
    try:
        client._http.get(client._http.url(path, {"limit": 1}))
    except ApiError as error:
        if error.status == 404:
            return False
    return True


def declares_parameter(path, name):
    """Whether the live API's OpenAPI document declares query parameter ``name`` on ``path``."""
    url = os.environ["COVID_API_URL"].rstrip("/") + "/docs-json"
    with urllib.request.urlopen(url) as answer:
        document = json.load(answer)
    operation = document["paths"].get(path, {}).get("get", {})
    return any(p.get("name") == name for p in operation.get("parameters", []))
