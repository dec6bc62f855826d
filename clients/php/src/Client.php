<?php

declare(strict_types=1);

namespace Hark;

/**
 * The Hark client: one object from a base URL and an API key; every operation as a method (from
 * Operations.php), with a time limit, retries with backoff and jitter on network errors, 429 and 5xx
 * (for idempotent requests and POSTs with an idempotency key), typed exceptions, and helpers that
 * upload (streamed by curl from disk), wait for work and walk every page of a list.
 */
final class Client extends Operations
{
    public const VERSION = '0.1.0';

    private string $baseUrl;
    private string $apiKey;
    private ?string $workspace = null;

    public function __construct(?string $baseUrl = null, ?string $apiKey = null, private float $timeout = 60.0, private int $maxRetries = 3)
    {
        $this->baseUrl = rtrim($baseUrl ?? (getenv('HARK_URL') ?: 'http://127.0.0.1:8080'), '/');
        $key = $apiKey ?? (getenv('HARK_API_KEY') ?: null);
        if ($key === null || $key === '') {
            throw new \InvalidArgumentException('an API key is needed: pass apiKey or set HARK_API_KEY');
        }
        $this->apiKey = $key;
    }

    /** Exponential backoff with full jitter, capped, in seconds. */
    public static function backoff(int $attempt): float
    {
        return (mt_rand() / mt_getrandmax()) * min(8.0, 0.5 * 2 ** $attempt);
    }

    /** The key's workspace, asked once. */
    public function workspaceId(): string
    {
        if ($this->workspace === null) {
            $answer = $this->request('GET', '/api/v1/workspaces');
            $id = $answer['data'][0]['id'] ?? null;
            if (!is_string($id)) {
                throw new HarkException('the API key has no workspace');
            }
            $this->workspace = $id;
        }
        return $this->workspace;
    }

    protected function call(string $method, string $template, array $path, array $query, mixed $body): mixed
    {
        if (str_contains($template, '{workspace_id}') && !isset($path['workspace_id'])) {
            $path['workspace_id'] = $this->workspaceId();
        }
        $url = preg_replace_callback('/\{(\w+)\}/', static function (array $m) use ($path, $method, $template): string {
            if (!isset($path[$m[1]])) {
                throw new \InvalidArgumentException("{$m[1]} is needed for {$method} {$template}");
            }
            return rawurlencode((string) $path[$m[1]]);
        }, $template);
        return $this->request($method, (string) $url, $query, $body);
    }

    /**
     * One HTTP request with the client's retries; answers decoded JSON, text, or null for 204.
     *
     * @param array<string, mixed> $query
     */
    public function request(string $method, string $path, array $query = [], mixed $body = null, ?string $idempotencyKey = null): mixed
    {
        $url = $this->baseUrl . $path;
        $pairs = [];
        foreach ($query as $name => $value) {
            foreach (is_array($value) ? $value : [$value] as $item) {
                if ($item !== null) {
                    $pairs[] = rawurlencode((string) $name) . '=' . rawurlencode(is_bool($item) ? ($item ? 'true' : 'false') : (string) $item);
                }
            }
        }
        if ($pairs !== []) {
            $url .= '?' . implode('&', $pairs);
        }
        $headers = ['Authorization: Bearer ' . $this->apiKey, 'User-Agent: hark-php/' . self::VERSION . ' php/' . PHP_VERSION, 'Accept: application/json'];
        $streamed = $body instanceof StreamBody;
        $multipart = $streamed || (is_array($body) && ($body['file'] ?? null) instanceof \CURLFile);
        $payload = null;
        if ($streamed) {
            // Sent chunked: the length of a stream need not be known.
            $headers[] = 'Content-Type: ' . $body->contentType;
            $headers[] = 'Transfer-Encoding: chunked';
        } elseif ($multipart) {
            $payload = $body;
        } elseif ($body !== null) {
            $payload = json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES);
            $headers[] = 'Content-Type: application/json';
        }
        if ($idempotencyKey !== null) {
            $headers[] = 'Idempotency-Key: ' . $idempotencyKey;
        }
        $retryable = !$multipart && ($method !== 'POST' || $idempotencyKey !== null || (is_array($body) && isset($body['idempotency_key'])));

        for ($attempt = 0; ; $attempt++) {
            $responseHeaders = [];
            $curl = curl_init($url);
            curl_setopt_array($curl, [
                CURLOPT_CUSTOMREQUEST => $method,
                CURLOPT_HTTPHEADER => $headers,
                CURLOPT_RETURNTRANSFER => true,
                CURLOPT_TIMEOUT_MS => (int) ($this->timeout * 1000),
                CURLOPT_HEADERFUNCTION => static function ($handle, string $line) use (&$responseHeaders): int {
                    $parts = explode(':', $line, 2);
                    if (count($parts) === 2) {
                        $responseHeaders[strtolower(trim($parts[0]))] = trim($parts[1]);
                    }
                    return strlen($line);
                },
            ]);
            if ($streamed) {
                curl_setopt($curl, CURLOPT_UPLOAD, true);
                curl_setopt($curl, CURLOPT_CUSTOMREQUEST, $method);
                curl_setopt($curl, CURLOPT_READFUNCTION, $body->read);
            } elseif ($payload !== null) {
                curl_setopt($curl, CURLOPT_POSTFIELDS, $payload);
            }
            $text = curl_exec($curl);
            $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
            $failure = curl_error($curl);
            curl_close($curl);
            if ($text === false || $status === 0) {
                if ($retryable && $attempt < $this->maxRetries) {
                    usleep((int) (self::backoff($attempt) * 1e6));
                    continue;
                }
                $host = parse_url($this->baseUrl, PHP_URL_HOST) . (parse_url($this->baseUrl, PHP_URL_PORT) ? ':' . parse_url($this->baseUrl, PHP_URL_PORT) : '');
                throw new ConnectionException("{$method} {$path}: no answer from {$host} ({$failure})");
            }
            if ($status < 300) {
                if ($status === 204) {
                    return null;
                }
                return str_contains($responseHeaders['content-type'] ?? '', 'json') ? json_decode((string) $text, true, 512, JSON_THROW_ON_ERROR) : $text;
            }
            $problem = json_decode((string) $text, true);
            $error = ApiException::fromResponse($status, is_array($problem) ? $problem : [], $responseHeaders['x-request-id'] ?? null);
            if ($retryable && $attempt < $this->maxRetries && ($status === 429 || $status >= 500)) {
                $after = $responseHeaders['retry-after'] ?? '';
                usleep((int) ((is_numeric($after) && (float) $after > 0 ? min((float) $after, 60.0) : self::backoff($attempt)) * 1e6));
                continue;
            }
            throw $error;
        }
    }

    // ---- helpers ----

    /**
     * Uploads a file from a path (curl streams it from disk).
     *
     * @param array<string, mixed>|null $metadata
     * @return array<string, mixed>
     */
    public function upload(string $file, ?array $metadata = null, ?int $retentionDays = null, ?string $recordedAt = null): array
    {
        if (!is_readable($file)) {
            throw new \InvalidArgumentException("{$file} cannot be read");
        }
        $form = [];
        if ($metadata !== null) {
            $form['metadata'] = json_encode($metadata, JSON_THROW_ON_ERROR);
        }
        if ($retentionDays !== null) {
            $form['retention_days'] = (string) $retentionDays;
        }
        if ($recordedAt !== null) {
            $form['recorded_at'] = $recordedAt;
        }
        $form['file'] = new \CURLFile($file, mime_content_type($file) ?: 'application/octet-stream', basename($file));
        return $this->uploadRecording(body: $form);
    }

    /**
     * Uploads audio read from an open stream (a resource), never holding it whole: the multipart
     * body is written piece by piece as curl asks for it.
     *
     * @param resource $stream
     * @param array<string, mixed>|null $metadata
     * @return array<string, mixed>
     */
    public function uploadStream($stream, string $filename, ?array $metadata = null, ?int $retentionDays = null, ?string $workspaceId = null, ?string $recordedAt = null): array
    {
        $boundary = '----hark' . bin2hex(random_bytes(12));
        $head = '';
        $fields = [];
        if ($metadata !== null) {
            $fields['metadata'] = json_encode($metadata, JSON_THROW_ON_ERROR);
        }
        if ($retentionDays !== null) {
            $fields['retention_days'] = (string) $retentionDays;
        }
        if ($recordedAt !== null) {
            $fields['recorded_at'] = $recordedAt;
        }
        foreach ($fields as $name => $value) {
            $head .= "--{$boundary}\r\nContent-Disposition: form-data; name=\"{$name}\"\r\n\r\n{$value}\r\n";
        }
        $quoted = str_replace('"', '%22', $filename);
        $head .= "--{$boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{$quoted}\"\r\nContent-Type: application/octet-stream\r\n\r\n";
        $tail = "\r\n--{$boundary}--\r\n";
        $pieces = [$head, $stream, $tail];
        $read = static function ($curl, $in, int $length) use (&$pieces): string {
            while ($pieces !== []) {
                $piece = $pieces[0];
                if (is_string($piece)) {
                    array_shift($pieces);
                    if (strlen($piece) > $length) {
                        array_unshift($pieces, substr($piece, $length));
                        return substr($piece, 0, $length);
                    }
                    if ($piece !== '') {
                        return $piece;
                    }
                    continue;
                }
                $chunk = fread($piece, $length);
                if ($chunk !== false && $chunk !== '') {
                    return $chunk;
                }
                array_shift($pieces);
            }
            return '';
        };
        $path = '/api/v1/workspaces/' . rawurlencode($workspaceId ?? $this->workspaceId()) . '/recordings';
        return $this->request('POST', $path, [], new StreamBody("multipart/form-data; boundary={$boundary}", $read));
    }

    /** @param callable(): mixed $check */
    private function until(string $what, callable $check, float $timeout): mixed
    {
        $deadline = microtime(true) + $timeout;
        for ($attempt = 0; ; $attempt++) {
            $value = $check();
            if ($value !== null) {
                return $value;
            }
            if (microtime(true) > $deadline) {
                throw new WaitException("gave up waiting for {$what}");
            }
            usleep((int) (min(5.0, 0.25 * 1.5 ** $attempt) * 1e6));
        }
    }

    /** @return array<string, mixed> */
    public function waitForRecording(string $recordingId, float $timeout = 600.0): array
    {
        return $this->until("recording {$recordingId}", function () use ($recordingId): ?array {
            $recording = $this->getRecording(['recording_id' => $recordingId]);
            if ($recording['status'] === 'failed' || $recording['status'] === 'download_failed') {
                throw new WaitException("recording {$recordingId} {$recording['status']}: {$recording['error_code']}");
            }
            return $recording['status'] === 'completed' ? $recording : null;
        }, $timeout);
    }

    /** @return array<string, mixed> */
    private function waitRun(string $kind, string $runId, float $timeout): array
    {
        return $this->until("{$kind} run {$runId}", function () use ($kind, $runId): ?array {
            $run = $kind === 'transcription' ? $this->getTranscriptionRun(['run_id' => $runId]) : $this->getAnalysisRun(['run_id' => $runId]);
            if ($run['status'] === 'failed' || $run['status'] === 'cancelled') {
                throw new WaitException("{$kind} run {$runId} {$run['status']}: {$run['error_code']}");
            }
            return $run['status'] === 'completed' ? $run : null;
        }, $timeout);
    }

    /** @return array<string, mixed> */
    public function waitForTranscript(string $runId, float $timeout = 600.0): array
    {
        $this->waitRun('transcription', $runId, $timeout);
        return $this->getRunTranscript(['run_id' => $runId]);
    }

    /** @return array<string, mixed> */
    public function waitForAnalysis(string $runId, float $timeout = 600.0): array
    {
        $run = $this->waitRun('analysis', $runId, $timeout);
        return $this->getAnalysisResult(['recording_id' => $run['recording_id'], 'run_id' => $runId]);
    }

    /**
     * Uploads a file, transcribes it with the default scenario (or a named one) and waits.
     *
     * @return array<string, mixed>
     */
    public function transcribe(string $file, ?string $scenarioId = null, float $timeout = 600.0): array
    {
        $recording = $this->upload($file);
        $this->waitForRecording($recording['id'], $timeout);
        if ($scenarioId === null) {
            // Newest first: a run an automatic scenario started on upload exists once the recording
            // is prepared, and is waited for rather than transcribing the call twice.
            $newest = $this->listTranscriptionRuns([], ['recording_id' => $recording['id'], 'limit' => 1])['data'][0] ?? null;
            if ($newest !== null && !in_array($newest['status'], ['failed', 'cancelled'], true)) {
                return $this->waitForTranscript($newest['id'], $timeout);
            }
        }
        $run = $this->createTranscriptionRun(['recording_id' => $recording['id']], [], $scenarioId === null ? new \stdClass() : ['transcription_scenario_id' => $scenarioId]);
        return $this->waitForTranscript($run['id'], $timeout);
    }

    /**
     * Every item of a list, following next_cursor page after page.
     *
     * @param array<string, string> $path
     * @param array<string, mixed> $query
     * @return \Generator<int, mixed>
     */
    public function paginate(string $operation, array $path = [], array $query = []): \Generator
    {
        $cursor = null;
        do {
            $page = $this->{$operation}($path, $cursor === null ? $query : [...$query, 'cursor' => $cursor]);
            yield from $page['data'];
            $cursor = $page['next_cursor'] ?? null;
        } while ($cursor !== null && $cursor !== '');
    }

    /**
     * Starts an execution ("transcription" or "analysis"); without an idempotency key one is made,
     * so a retried call never starts the work twice.
     *
     * @param list<string>|null $recordingIds
     * @return array<string, mixed>
     */
    public function execute(string $kind, string $scenarioId, ?array $recordingIds = null, ?string $idempotencyKey = null): array
    {
        $body = ['idempotency_key' => $idempotencyKey ?? bin2hex(random_bytes(16))];
        if ($recordingIds !== null) {
            $body['recording_ids'] = $recordingIds;
        }
        return $kind === 'transcription'
            ? $this->createTranscriptionExecution(['scenario_id' => $scenarioId], [], $body)
            : $this->createAnalysisExecution(['scenario_id' => $scenarioId], [], $body);
    }
}
