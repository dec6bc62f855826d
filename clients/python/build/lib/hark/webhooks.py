"""Checks a webhook delivery: Standard Webhooks headers against the raw body and the whsec_ secret."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Union

from .errors import HarkError


class WebhookVerificationError(HarkError):
    pass


def _header(headers: Mapping[str, Any], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else str(value)
    return ""


def verify_webhook(raw_body: Union[bytes, str], headers: Mapping[str, Any], secret: str, tolerance_seconds: int = 300) -> Any:
    """Returns the event when the delivery is genuine; raises WebhookVerificationError otherwise."""
    webhook_id, timestamp, signatures = (_header(headers, n) for n in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not webhook_id or not timestamp or not signatures:
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    try:
        sent = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("the timestamp is not a number") from error
    if abs(time.time() - sent) > tolerance_seconds:
        raise WebhookVerificationError("the timestamp is too far from now")
    body = raw_body.decode("utf-8") if isinstance(raw_body, bytes) else raw_body
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    expected = hmac.new(key, f"{webhook_id}.{timestamp}.{body}".encode("utf-8"), hashlib.sha256).digest()
    for entry in signatures.split(" "):
        version, _, value = entry.partition(",")
        if version == "v1" and value and hmac.compare_digest(base64.b64decode(value), expected):
            return json.loads(body)
    raise WebhookVerificationError("no signature matches")
