"""The Python client against a live Hark started for these tests (embedded store, a free port):
upload, transcribe and wait, typed answers, paging, an execution replayed with its key, typed
errors, a 429 retried, a webhook delivery verified (and a tampered one refused), the quickstart."""
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import typing
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, ".."))

from hark import Hark, HarkConnectionError, NotFoundError, PermissionDeniedError, RateLimitError, WebhookVerificationError, verify_webhook  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def speech(text: str, folder: str) -> str:
    path = os.path.join(folder, f"{abs(hash(text))}.wav")
    subprocess.run(["flite", "-voice", "slt", "-t", text, "-o", path], check=True)
    return path


class LiveHark(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.folder = tempfile.mkdtemp(prefix="hark-python-")
        cls.port = free_port()
        cls.url = f"http://127.0.0.1:{cls.port}"
        env = {**os.environ, "PORT": str(cls.port), "HARK_DATA_DIR": os.path.join(cls.folder, "data"), "HARK_LOG_LEVEL": "silent", "HARK_IMPORT_ALLOW_PRIVATE": "1"}
        env.pop("DATABASE_URL", None)
        cls.server = subprocess.Popen(["node", "bin/hark.js", "serve"], cwd=ROOT, env=env)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{cls.url}/readyz", timeout=2):
                    break
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.3)
        request = urllib.request.Request(f"{cls.url}/api/v1/accounts", data=json.dumps({"email": "py@example.com", "password": "a long password", "workspace_name": "Python"}).encode(), headers={"content-type": "application/json"}, method="POST")
        with urllib.request.urlopen(request) as answer:
            cls.key = json.loads(answer.read())["api_key"]
        cls.hark = Hark(base_url=cls.url, api_key=cls.key)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.terminate()
        cls.server.wait(timeout=30)
        shutil.rmtree(cls.folder, ignore_errors=True)

    def test_transcribe_and_analyse(self) -> None:
        transcript = self.hark.transcribe(speech("Please send me the invoice for last month.", self.folder), metadata={"agent": "ana"})
        self.assertIn("invoice", transcript["text"].lower())
        self.assertGreater(len(transcript["words"]), 3)
        # The workspace transcribes every upload by itself: transcribe waited for that run, it did not start a second.
        self.assertEqual(len(self.hark.list_transcription_runs(query={"recording_id": transcript["recording_id"]})["data"]), 1)
        scenario = self.hark.create_analysis_scenario(body={"name": "Review", "questions": [{"id": "greeting", "text": "Did the agent greet the customer?", "type": "boolean"}, {"id": "request", "text": "What did the customer ask for?", "type": "text"}]})
        run = self.hark.create_analysis_run(recording_id=transcript["recording_id"], body={"analysis_scenario_id": scenario["id"]})
        result = self.hark.wait_for_analysis(run["id"])
        self.assertEqual([type(a["answer"]) for a in result["answers"]], [bool, str])
        first = self.hark.execute("analysis", scenario["id"], recording_ids=[transcript["recording_id"]], idempotency_key="nightly-1")
        again = self.hark.execute("analysis", scenario["id"], recording_ids=[transcript["recording_id"]], idempotency_key="nightly-1")
        self.assertEqual(first["id"], again["id"])
        self.assertNotEqual(self.hark.execute("analysis", scenario["id"], recording_ids=[transcript["recording_id"]])["id"], first["id"])

    def test_paging(self) -> None:
        for i in range(3):
            with open(speech(f"Call number {i}.", self.folder), "rb") as stream:
                uploaded = self.hark.upload(stream, filename=f"call-{i}.wav", recorded_at="2026-10-05T09:30:00Z" if i == 0 else None)
            if i == 0:
                self.assertEqual((uploaded["recorded_at_source"], uploaded["recorded_at"][:16]), ("client", "2026-10-05T09:30"))
        seen = [r["id"] for r in self.hark.paginate(self.hark.list_recordings, query={"limit": 2})]
        everything = [r["id"] for r in self.hark.list_recordings(query={"limit": 100})["data"]]
        self.assertGreaterEqual(len(seen), 3)
        self.assertEqual(seen, everything)

    def test_answers_are_typed(self) -> None:
        from hark import _generated
        hints = typing.get_type_hints(Hark.list_recordings)
        self.assertIs(hints["return"], _generated.ListRecordingsAnswer)
        self.assertEqual(typing.get_type_hints(_generated.ListRecordingsAnswer)["data"], typing.List[_generated.Recording])
        self.assertEqual(typing.get_type_hints(Hark.get_recording_transcript)["return"], typing.Union[_generated.Transcript, str])
        self.assertIs(typing.get_type_hints(Hark.get_recording)["return"], _generated.Recording)
        page = self.hark.list_recordings(query={"limit": 1})
        self.assertEqual(set(page), set(typing.get_type_hints(_generated.ListRecordingsAnswer)))

    def test_typed_errors(self) -> None:
        with self.assertRaises(NotFoundError) as caught:
            self.hark.get_recording(recording_id="fl-00000000-0000-0000-0000-000000000000")
        self.assertEqual((caught.exception.status, caught.exception.code), (404, "not_found"))
        self.assertTrue(caught.exception.request_id)
        reader_key = self.hark.create_api_key(body={"name": "read only", "scopes": ["recordings:read"]})["key"]
        with self.assertRaises(PermissionDeniedError) as denied:
            Hark(base_url=self.url, api_key=reader_key).create_analysis_scenario(body={"name": "x"})
        self.assertEqual(denied.exception.code, "insufficient_scope")

    def test_connection_error_names_the_host(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        with self.assertRaises(HarkConnectionError) as caught:
            Hark(base_url=f"http://127.0.0.1:{port}", api_key="hark_x", max_retries=0).list_recordings(workspace_id="ws-x")
        self.assertIn(f"no answer from 127.0.0.1:{port}", str(caught.exception))

    def test_429_is_retried(self) -> None:
        calls = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                calls.append(time.monotonic())
                if len(calls) == 1:
                    self.send_response(429)
                    self.send_header("retry-after", "1")
                    self.send_header("content-type", "application/problem+json")
                    self.end_headers()
                    self.wfile.write(b'{"code":"rate_limited","detail":"slow down","status":429}')
                    return
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"data":[{"id":"ws-1"}]}')

            def log_message(self, *args: object) -> None:
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}"
            self.assertEqual(Hark(base_url=url, api_key="hark_x").workspace_id(), "ws-1")
            self.assertEqual(len(calls), 2)
            self.assertGreaterEqual(calls[1] - calls[0], 0.9)
            calls.clear()
            with self.assertRaises(RateLimitError):
                Hark(base_url=url, api_key="hark_x", max_retries=0).list_workspaces()
        finally:
            server.shutdown()
            server.server_close()

    def test_webhook_verified(self) -> None:
        received = []

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers["content-length"]))
                received.append((body, dict(self.headers)))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            # Only an event no other test causes: the test event comes whatever the filter, and
            # nothing else (an execution of another test finishing) arrives first.
            hook = self.hark.create_webhook(body={"url": f"http://127.0.0.1:{server.server_address[1]}/hook", "events": ["recording.download_failed"]})
            self.hark.send_test_event(webhook_id=hook["id"])
            deadline = time.monotonic() + 30
            while not received and time.monotonic() < deadline:
                time.sleep(0.1)
            body, headers = received[0]
            self.assertEqual(verify_webhook(body, headers, hook["secret"])["type"], "webhook.test")
            with self.assertRaises(WebhookVerificationError):
                verify_webhook(body.replace(b"webhook.test", b"webhook.evil"), headers, hook["secret"])
        finally:
            server.shutdown()
            server.server_close()

    def test_quickstart(self) -> None:
        """The quickstart prints the transcript as SRT and nothing else."""
        audio = speech("Thank you for calling, goodbye.", self.folder)
        env = {**os.environ, "HARK_URL": self.url, "HARK_API_KEY": self.key}
        out = subprocess.run([sys.executable, "clients/python/examples/quickstart.py", audio], cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout
        self.assertRegex(out, r"(?i)^1\n00:00:0\d,\d{3} --> 00:00:0\d,\d{3}\n[^\n]*thank you[^\n]*\n", out)


if __name__ == "__main__":
    unittest.main()
