"""Rows of JSON to typed DataFrames: dates parsed, counts as nullable integers, flags as lists."""

import pandas as pd

# Columns the API declares as integers.
INTEGERS = {
    "id", "total_cases", "total_deaths", "countries_reporting", "population", "year", "lag",
    "records",
}
# Figures that are counts as published but may hold decimals (estimates, averages): Int64 when
# every value is whole, Float64 otherwise.
COUNTS = {"new_cases", "new_deaths", "value", "old", "new"}
# Derived figures: always decimals.
DECIMALS = {
    "new_cases_smoothed", "new_deaths_smoothed", "total_cases_per_million",
    "total_deaths_per_million", "new_cases_per_million", "new_deaths_per_million",
    "new_cases_smoothed_per_million", "new_deaths_smoothed_per_million", "case_fatality_rate",
}
DATES = {"date", "first_date", "last_date"}
INSTANTS = {"at", "issued_at"}


def frame(rows, columns=None):
    """A DataFrame of ``rows`` (dicts) with the API's types; ``columns`` fixes an empty one."""
    df = pd.DataFrame.from_records(list(rows), columns=columns if not rows else None)
    if "flags" in df.columns or (columns and "flags" in columns):
        # JSON leaves ``flags`` out of a row that has none.
        flags = df["flags"] if "flags" in df.columns else [None] * len(df)
        df["flags"] = [list(f) if isinstance(f, list) else [] for f in flags]
    for name in df.columns:
        if name in INTEGERS:
            df[name] = _numbers(df[name]).astype("Int64")
        elif name in COUNTS:
            numbers = _numbers(df[name])
            whole = numbers.dropna()
            whole = bool((whole == whole.round()).all())
            df[name] = numbers.astype("Int64" if whole else "Float64")
        elif name in DECIMALS:
            df[name] = _numbers(df[name]).astype("Float64")
        elif name in DATES:
            df[name] = pd.to_datetime(df[name], format="%Y-%m-%d")
        elif name in INSTANTS:
            df[name] = pd.to_datetime(df[name], utc=True)
    return df


def _numbers(column):
    # Exact through float64: the API keeps every figure and sum below 2**53 (docs/api.md).
    return pd.to_numeric(column, errors="raise")
