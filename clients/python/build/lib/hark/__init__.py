"""Hark's Python client: ``Hark(base_url, api_key)``, a method per API operation, helpers that
upload and wait, typed errors, and webhook verification. Standard library only."""
from ._generated import AnalysisResult, AnalysisRun, Execution, Recording, Transcript, TranscriptionRun
from .client import VERSION, Hark, backoff
from .errors import (
    APIError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    HarkConnectionError,
    HarkError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    UnprocessableEntityError,
    WaitError,
)
from .webhooks import WebhookVerificationError, verify_webhook

__version__ = VERSION
__all__ = [
    "APIError", "AnalysisResult", "AnalysisRun", "AuthenticationError", "BadRequestError", "ConflictError", "Execution", "Hark",
    "HarkConnectionError", "HarkError", "InternalServerError", "NotFoundError", "PermissionDeniedError", "RateLimitError", "Recording",
    "Transcript", "TranscriptionRun", "UnprocessableEntityError", "WaitError", "WebhookVerificationError", "backoff", "verify_webhook",
]
