"""Errors a caller can branch on: the HTTP status, the problem's code and detail, the request id."""
from __future__ import annotations

from typing import Any, Dict, Optional


class HarkError(Exception):
    """Base of every error this client raises."""


class APIError(HarkError):
    """The server answered with an error (problem+json)."""

    def __init__(self, status: int, problem: Dict[str, Any], request_id: Optional[str]) -> None:
        self.status = status
        self.code: str = str(problem.get("code") or "unknown")
        self.detail: str = str(problem.get("detail") or problem.get("title") or "")
        self.request_id: Optional[str] = problem.get("request_id") or request_id
        self.problem = problem
        super().__init__(f"{status} {self.code}: {self.detail}")


class BadRequestError(APIError):
    pass


class AuthenticationError(APIError):
    pass


class PermissionDeniedError(APIError):
    pass


class NotFoundError(APIError):
    pass


class ConflictError(APIError):
    pass


class UnprocessableEntityError(APIError):
    pass


class RateLimitError(APIError):
    pass


class InternalServerError(APIError):
    pass


class HarkConnectionError(HarkError):
    """No answer: the connection failed or the time limit passed."""


class WaitError(HarkError):
    """A waiting helper gave up, or the work it waited for failed."""


_BY_STATUS = {400: BadRequestError, 401: AuthenticationError, 403: PermissionDeniedError, 404: NotFoundError, 409: ConflictError, 422: UnprocessableEntityError, 429: RateLimitError}


def error_for(status: int, problem: Dict[str, Any], request_id: Optional[str]) -> APIError:
    kind = _BY_STATUS.get(status) or (InternalServerError if status >= 500 else APIError)
    return kind(status, problem, request_id)
