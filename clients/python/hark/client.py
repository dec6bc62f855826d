"""The Hark client: one object from a base URL and an API key; every operation as a method (from
_generated.py), with a time limit, retries with backoff and jitter on network errors, 429 and 5xx
(for idempotent requests and POSTs with an idempotency key), typed errors, and helpers to upload
from a path (streamed), wait for work, and walk every page of a list."""
from __future__ import annotations

import json
import mimetypes
import os
import platform
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, BinaryIO, Callable, Dict, Iterator, List, Mapping, Optional, Union

from ._generated import AnalysisResult, Execution, Operations, Recording, Transcript
from .errors import HarkConnectionError, WaitError, error_for

VERSION = "0.1.0"


def backoff(attempt: int, base: float = 0.5, cap: float = 8.0) -> float:
    """Exponential backoff with full jitter, capped."""
    return random.uniform(0, min(cap, base * 2**attempt))


class _MultipartBody:
    """A multipart/form-data body read piece by piece: the file is streamed, never held whole."""

    def __init__(self, fields: Mapping[str, str], file: BinaryIO, filename: str, size: int) -> None:
        self.boundary = f"----hark{uuid.uuid4().hex}"
        head = b"".join(f'--{self.boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode("utf-8") for name, value in fields.items())
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        quoted = filename.replace('"', "%22")
        head += f'--{self.boundary}\r\nContent-Disposition: form-data; name="file"; filename="{quoted}"\r\nContent-Type: {content_type}\r\n\r\n'.encode("utf-8")
        self._parts: List[Union[bytes, BinaryIO]] = [head, file, f"\r\n--{self.boundary}--\r\n".encode("utf-8")]
        self.length = len(head) + size + len(self._parts[2])  # type: ignore[arg-type]

    def read(self, size: int = -1) -> bytes:
        while self._parts:
            part = self._parts[0]
            if isinstance(part, bytes):
                chunk, rest = (part, b"") if size < 0 else (part[:size], part[size:])
                if rest:
                    self._parts[0] = rest
                else:
                    self._parts.pop(0)
                if chunk:
                    return chunk
            else:
                chunk = part.read(size if size > 0 else 1 << 16)
                if chunk:
                    return chunk
                self._parts.pop(0)
        return b""


class Hark(Operations):
    def __init__(self, base_url: Optional[str] = None, api_key: Optional[str] = None, timeout: float = 60.0, max_retries: int = 3) -> None:
        self.base_url = (base_url or os.environ.get("HARK_URL") or "http://127.0.0.1:8080").rstrip("/")
        key = api_key or os.environ.get("HARK_API_KEY")
        if not key:
            raise ValueError("an API key is needed: pass api_key or set HARK_API_KEY")
        self._api_key = key
        self.timeout = timeout
        self.max_retries = max_retries
        self._workspace: Optional[str] = None
        self.user_agent = f"hark-python/{VERSION} python/{platform.python_version()}"

    def workspace_id(self) -> str:
        """The key's workspace, asked once."""
        if self._workspace is None:
            data = self.request("GET", "/api/v1/workspaces")["data"]
            if not data:
                raise ValueError("the API key has no workspace")
            self._workspace = str(data[0]["id"])
        return self._workspace

    def _call(self, method: str, path: str, params: Mapping[str, Any], query: Optional[Mapping[str, Any]], body: Any) -> Any:
        values = dict(params)
        if "workspace_id" in values and values["workspace_id"] is None:
            values["workspace_id"] = self.workspace_id()
        for name, value in values.items():
            if value is None:
                raise ValueError(f"{name} is needed for {method} {path}")
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        return self.request(method, path, query=query, body=body)

    def request(self, method: str, path: str, query: Optional[Mapping[str, Any]] = None, body: Any = None, headers: Optional[Mapping[str, str]] = None, idempotency_key: Optional[str] = None) -> Any:
        """One HTTP request with the client's retries; answers JSON, text, or None for 204."""
        url = f"{self.base_url}{path}"
        pairs = [(k, str(item).lower() if isinstance(item, bool) else str(item)) for k, v in (query or {}).items() if v is not None for item in (v if isinstance(v, (list, tuple)) else [v])]
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        sent_headers = {"authorization": f"Bearer {self._api_key}", "user-agent": self.user_agent, "accept": "application/json", **(headers or {})}
        if idempotency_key:
            sent_headers["idempotency-key"] = idempotency_key
        multipart = isinstance(body, _MultipartBody)
        payload: Any = None
        if multipart:
            sent_headers["content-type"] = f"multipart/form-data; boundary={body.boundary}"
            sent_headers["content-length"] = str(body.length)
            payload = body
        elif body is not None:
            payload = json.dumps(body).encode("utf-8")
            sent_headers["content-type"] = "application/json"
        # A POST is retried only when it carries an idempotency key; a streamed upload never is.
        retryable = not multipart and (method != "POST" or bool(idempotency_key) or (isinstance(body, dict) and "idempotency_key" in body))
        attempt = 0
        while True:
            request = urllib.request.Request(url, data=payload, headers=sent_headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as response:
                    if response.status == 204:
                        return None
                    text = response.read().decode("utf-8")
                    return json.loads(text) if "json" in (response.headers.get("content-type") or "") else text
            except urllib.error.HTTPError as failure:
                raw = failure.read().decode("utf-8", "replace")
                try:
                    problem = json.loads(raw)
                except ValueError:
                    problem = {"detail": raw[:200]}
                error = error_for(failure.code, problem if isinstance(problem, dict) else {}, failure.headers.get("x-request-id"))
                if retryable and attempt < self.max_retries and (failure.code == 429 or failure.code >= 500):
                    after = failure.headers.get("retry-after")
                    time.sleep(min(float(after), 60.0) if after and after.replace(".", "", 1).isdigit() else backoff(attempt))
                    attempt += 1
                    continue
                raise error from None
            except (urllib.error.URLError, TimeoutError, ConnectionError) as failure:
                if retryable and attempt < self.max_retries:
                    time.sleep(backoff(attempt))
                    attempt += 1
                    continue
                raise HarkConnectionError(f"{method} {path}: no answer from {urllib.parse.urlsplit(self.base_url).netloc} ({failure})") from failure

    # ---- helpers ----

    def upload(self, file: Union[str, "os.PathLike[str]", BinaryIO], metadata: Optional[Mapping[str, Any]] = None, retention_days: Optional[int] = None, workspace_id: Optional[str] = None, filename: Optional[str] = None, recorded_at: Optional[str] = None) -> Recording:
        """Uploads a file from a path or an open binary file (seekable), streamed, never read whole.

        recorded_at: when the call took place (ISO 8601 with a time zone); else read from the file or the upload time."""
        fields: Dict[str, str] = {}
        if metadata is not None:
            fields["metadata"] = json.dumps(metadata)
        if retention_days is not None:
            fields["retention_days"] = str(retention_days)
        if recorded_at is not None:
            fields["recorded_at"] = recorded_at
        if hasattr(file, "read"):
            stream: BinaryIO = file  # type: ignore[assignment]
            start = stream.tell()
            size = stream.seek(0, os.SEEK_END) - start
            stream.seek(start)
            name = filename or os.path.basename(str(getattr(stream, "name", "audio")))
            body = _MultipartBody(fields, stream, name, size)
            return self.upload_recording(workspace_id=workspace_id, body=body)  # type: ignore[no-any-return]
        path = os.fspath(file)  # type: ignore[arg-type]
        with open(path, "rb") as handle:
            body = _MultipartBody(fields, handle, filename or os.path.basename(path), os.path.getsize(path))
            return self.upload_recording(workspace_id=workspace_id, body=body)  # type: ignore[no-any-return]

    def _until(self, what: str, check: Callable[[], Any], timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        attempt = 0
        while True:
            value = check()
            if value is not None:
                return value
            if time.monotonic() > deadline:
                raise WaitError(f"gave up waiting for {what}")
            time.sleep(min(5.0, 0.25 * 1.5**attempt))
            attempt += 1

    def wait_for_recording(self, recording_id: str, timeout: float = 600.0) -> Recording:
        """Waits until a recording is prepared; a failed one raises WaitError."""

        def check() -> Optional[Recording]:
            recording: Recording = self.get_recording(recording_id=recording_id)
            if recording["status"] == "completed":
                return recording
            if recording["status"] in ("failed", "download_failed"):
                raise WaitError(f"recording {recording_id} {recording['status']}: {recording.get('error_code')} {recording.get('error_message')}")
            return None

        return self._until(f"recording {recording_id}", check, timeout)  # type: ignore[no-any-return]

    def _wait_run(self, kind: str, run_id: str, timeout: float) -> Dict[str, Any]:
        get = self.get_transcription_run if kind == "transcription" else self.get_analysis_run

        def check() -> Optional[Dict[str, Any]]:
            run: Dict[str, Any] = get(run_id=run_id)
            if run["status"] == "completed":
                return run
            if run["status"] in ("failed", "cancelled"):
                raise WaitError(f"{kind} run {run_id} {run['status']}: {run.get('error_code')} {run.get('error_message')}")
            return None

        return self._until(f"{kind} run {run_id}", check, timeout)  # type: ignore[no-any-return]

    def wait_for_transcript(self, run_id: str, timeout: float = 600.0) -> Transcript:
        self._wait_run("transcription", run_id, timeout)
        return self.get_run_transcript(run_id=run_id)  # type: ignore[no-any-return]

    def wait_for_analysis(self, run_id: str, timeout: float = 600.0) -> AnalysisResult:
        run = self._wait_run("analysis", run_id, timeout)
        return self.get_analysis_result(recording_id=run["recording_id"], run_id=run_id)  # type: ignore[no-any-return]

    def transcribe(self, file: Union[str, "os.PathLike[str]", None] = None, recording_id: Optional[str] = None, scenario_id: Optional[str] = None, metadata: Optional[Mapping[str, Any]] = None, timeout: float = 600.0) -> Transcript:
        """Uploads a file (or takes a recording) and waits for its transcript.

        Without a scenario named, the run the recording already has (the one an automatic scenario
        started on upload) is waited for, so a call is never transcribed twice; a new run on the
        default scenario is started only when it has none (or its newest failed or was cancelled).
        With a scenario named, a run on it is started.
        """
        if recording_id is None:
            if file is None:
                raise ValueError("give a file or a recording_id")
            recording_id = self.upload(file, metadata=metadata)["id"]
        self.wait_for_recording(recording_id, timeout)
        run_id: Optional[str] = None
        if scenario_id is None:
            # Newest first: an automatic run exists as soon as the recording is prepared.
            runs = self.list_transcription_runs(query={"recording_id": recording_id, "limit": 1})["data"]
            if runs and runs[0]["status"] not in ("failed", "cancelled"):
                run_id = runs[0]["id"]
        if run_id is None:
            run_id = self.create_transcription_run(recording_id=recording_id, body={"transcription_scenario_id": scenario_id} if scenario_id else {})["id"]
        return self.wait_for_transcript(run_id, timeout)

    def paginate(self, list_method: Callable[..., Any], query: Optional[Mapping[str, Any]] = None, **params: Any) -> Iterator[Any]:
        """Every item of a list, following next_cursor page after page."""
        cursor: Optional[str] = None
        while True:
            page = list_method(query={**(query or {}), **({"cursor": cursor} if cursor else {})}, **params)
            yield from page["data"]
            cursor = page.get("next_cursor")
            if not cursor:
                return

    def execute(self, kind: str, scenario_id: str, recording_ids: Optional[List[str]] = None, idempotency_key: Optional[str] = None) -> Execution:
        """Starts an execution; without an idempotency key one is made, so a retried call never starts the work twice."""
        body: Dict[str, Any] = {"idempotency_key": idempotency_key or str(uuid.uuid4())}
        if recording_ids is not None:
            body["recording_ids"] = recording_ids
        create = self.create_transcription_execution if kind == "transcription" else self.create_analysis_execution
        return create(scenario_id=scenario_id, body=body)  # type: ignore[no-any-return]
