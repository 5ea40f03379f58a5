"""The one exception the client raises."""


class ApiError(Exception):
    """An answer that is not a success, or no answer at all.

    ``status`` is the HTTP status (``None`` when the API could not be reached), ``message`` the
    API's ``error`` text (in French), ``details`` its ``details`` lines (a 400), else ``[]``.
    """

    def __init__(self, status, message, details=None):
        self.status = status
        self.message = message
        self.details = list(details or [])
        text = f"{status}: {message}" if status is not None else message
        if self.details:
            text += " (" + "; ".join(self.details) + ")"
        super().__init__(text)
