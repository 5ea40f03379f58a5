"""Client of the COVID-19 and MPOX data API: DataFrames, cursor pages and retries."""

from .client import Client
from .errors import ApiError

__all__ = ["ApiError", "Client"]
