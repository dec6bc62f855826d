<?php
// The PHP client against a live Hark started here (embedded store, a free port): upload,
// transcribe and wait, typed answers, paging, an execution replayed with its key, typed
// exceptions, a 429 retried, a webhook delivery verified (and a tampered one refused), and the
// quickstart's output. php clients/php/tests/run.php; exits non-zero on a failure.

declare(strict_types=1);

require __DIR__ . '/../src/autoload.php';

use Hark\Client;
use Hark\ConnectionException;
use Hark\NotFoundException;
use Hark\PermissionDeniedException;
use Hark\RateLimitException;
use Hark\Webhook;
use Hark\WebhookVerificationException;

$root = dirname(__DIR__, 3);
$folder = sys_get_temp_dir() . '/hark-php-' . bin2hex(random_bytes(4));
mkdir($folder);
$failures = 0;

function check(bool $ok, string $what): void
{
    global $failures;
    echo ($ok ? 'ok' : 'FAILED') . " - {$what}\n";
    if (!$ok) {
        $failures++;
    }
}

function freePort(): int
{
    $socket = stream_socket_server('tcp://127.0.0.1:0');
    $name = stream_socket_get_name($socket, false);
    fclose($socket);
    return (int) substr((string) $name, strrpos((string) $name, ':') + 1);
}

function speech(string $text): string
{
    global $folder;
    $path = $folder . '/' . md5($text) . '.wav';
    exec('flite -voice slt -t ' . escapeshellarg($text) . ' -o ' . escapeshellarg($path), $out, $code);
    if ($code !== 0) {
        throw new RuntimeException('flite failed');
    }
    return $path;
}

/** A one-shot HTTP server in a child PHP process: answers from a script, logs requests to a file. */
function stub(string $script): array
{
    global $folder;
    $port = freePort();
    $file = $folder . '/stub-' . $port . '.php';
    file_put_contents($file, $script);
    $process = proc_open([PHP_BINARY, '-S', "127.0.0.1:{$port}", $file], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
    for ($i = 0; $i < 50 && @fsockopen('127.0.0.1', $port) === false; $i++) {
        usleep(100000);
    }
    return [$process, "http://127.0.0.1:{$port}"];
}

$port = freePort();
$url = "http://127.0.0.1:{$port}";
$env = array_merge(getenv(), ['PORT' => (string) $port, 'HARK_DATA_DIR' => "{$folder}/data", 'HARK_LOG_LEVEL' => 'silent', 'HARK_IMPORT_ALLOW_PRIVATE' => '1', 'DATABASE_URL' => '']);
$server = proc_open(['node', 'bin/hark.js', 'serve'], [1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, $root, $env);
try {
    for ($deadline = time() + 60; @file_get_contents("{$url}/readyz") === false; usleep(300000)) {
        if (time() > $deadline) {
            throw new RuntimeException('Hark did not start');
        }
    }
    $registration = json_decode((string) file_get_contents("{$url}/api/v1/accounts", false, stream_context_create(['http' => [
        'method' => 'POST', 'header' => 'Content-Type: application/json', 'content' => json_encode(['email' => 'php@example.com', 'password' => 'a long password', 'workspace_name' => 'PHP']),
    ]])), true);
    $key = $registration['api_key'];
    $hark = new Client($url, $key);

    $transcript = $hark->transcribe(speech('Please send me the invoice for last month.'));
    check(str_contains(strtolower($transcript['text']), 'invoice') && count($transcript['words']) > 3, 'the transcript has the spoken words');
    // The workspace transcribes every upload by itself: transcribe waited for that run, it did not start a second.
    check(count($hark->listTranscriptionRuns([], ['recording_id' => $transcript['recording_id']])['data']) === 1, 'one run: the one the upload started');

    $scenario = $hark->createAnalysisScenario(body: ['name' => 'Review', 'questions' => [
        ['id' => 'greeting', 'text' => 'Did the agent greet the customer?', 'type' => 'boolean'],
        ['id' => 'request', 'text' => 'What did the customer ask for?', 'type' => 'text'],
    ]]);
    $run = $hark->createAnalysisRun(['recording_id' => $transcript['recording_id']], [], ['analysis_scenario_id' => $scenario['id']]);
    $result = $hark->waitForAnalysis($run['id']);
    check(is_bool($result['answers'][0]['answer']) && is_string($result['answers'][1]['answer']), 'typed answers');
    $first = $hark->execute('analysis', $scenario['id'], [$transcript['recording_id']], 'nightly-1');
    $again = $hark->execute('analysis', $scenario['id'], [$transcript['recording_id']], 'nightly-1');
    check($first['id'] === $again['id'], 'an execution replayed with its key is the same');

    foreach ([0, 1, 2] as $i) {
        $stream = fopen(speech("Call number {$i}."), 'rb');
        $uploaded = $hark->uploadStream($stream, "call-{$i}.wav", ['agent' => 'ana'], recordedAt: $i === 0 ? '2026-10-05T09:30:00Z' : null);
        fclose($stream);
        if ($i === 0) {
            check($uploaded['recorded_at_source'] === 'client' && str_starts_with($uploaded['recorded_at'], '2026-10-05T09:30'), 'a stream upload keeps the call date it is given');
        }
    }
    check($hark->waitForRecording($uploaded['id'])['metadata']['agent'] === 'ana', 'an upload from a stream is prepared with its metadata');
    $seen = array_map(static fn (array $r): string => $r['id'], iterator_to_array($hark->paginate('listRecordings', [], ['limit' => 2]), false));
    $all = array_map(static fn (array $r): string => $r['id'], $hark->listRecordings([], ['limit' => 100])['data']);
    check(count($seen) >= 3 && $seen === $all, 'paging follows next_cursor over every recording');

    try {
        $hark->getRecording(['recording_id' => 'fl-00000000-0000-0000-0000-000000000000']);
        check(false, 'a 404 throws');
    } catch (NotFoundException $e) {
        check($e->status === 404 && $e->errorCode === 'not_found' && $e->requestId !== null, 'a 404 is a NotFoundException with code and request id');
    }
    $reader = $hark->createApiKey(body: ['name' => 'read only', 'scopes' => ['recordings:read']]);
    try {
        (new Client($url, $reader['key']))->createAnalysisScenario(body: ['name' => 'x']);
        check(false, 'a 403 throws');
    } catch (PermissionDeniedException $e) {
        check($e->errorCode === 'insufficient_scope', 'a 403 is a PermissionDeniedException');
    }

    [$limited, $stubUrl] = stub('<?php $f = __DIR__ . "/count-" . basename(__FILE__); $n = (int) @file_get_contents($f) + 1; file_put_contents($f, (string) $n);'
        . ' if ($n === 1) { http_response_code(429); header("Retry-After: 1"); header("Content-Type: application/problem+json"); echo json_encode(["code" => "rate_limited", "detail" => "slow down", "status" => 429]); return; }'
        . ' if ($n === 2) { header("Content-Type: application/json"); echo json_encode(["data" => [["id" => "ws-1"]]]); return; }'
        . ' http_response_code(429); header("Retry-After: 1"); header("Content-Type: application/problem+json"); echo "{\"code\":\"rate_limited\"}";');
    $started = microtime(true);
    check((new Client($stubUrl, 'hark_x'))->workspaceId() === 'ws-1' && microtime(true) - $started >= 0.9, 'a 429 is retried after its Retry-After');
    try {
        (new Client($stubUrl, 'hark_x', 60.0, 0))->listWorkspaces();
        check(false, 'a 429 without retries throws');
    } catch (RateLimitException) {
        check(true, 'a 429 without retries is a RateLimitException');
    }
    proc_terminate($limited);

    $closed = freePort();
    try {
        (new Client("http://127.0.0.1:{$closed}", 'hark_x', 5.0, 0))->listRecordings(['workspace_id' => 'ws-x']);
        check(false, 'a refused connection throws');
    } catch (ConnectionException $e) {
        check(str_contains($e->getMessage(), "no answer from 127.0.0.1:{$closed}"), 'a connection error names the host');
    }

    [$receiver, $receiverUrl] = stub('<?php file_put_contents(__DIR__ . "/delivery.json", json_encode(["body" => file_get_contents("php://input"), "headers" => getallheaders()]));');
    $hook = $hark->createWebhook(body: ['url' => "{$receiverUrl}/hook", 'events' => ['recording.download_failed']]);
    $hark->sendTestEvent(['webhook_id' => $hook['id']]);
    for ($i = 0; $i < 300 && !is_file("{$folder}/delivery.json"); $i++) {
        usleep(100000);
    }
    $delivery = json_decode((string) @file_get_contents("{$folder}/delivery.json"), true);
    check(is_array($delivery) && Webhook::verify($delivery['body'], $delivery['headers'], $hook['secret'])['type'] === 'webhook.test', 'a webhook delivery verifies');
    try {
        Webhook::verify(str_replace('webhook.test', 'webhook.evil', $delivery['body']), $delivery['headers'], $hook['secret']);
        check(false, 'a tampered delivery throws');
    } catch (WebhookVerificationException) {
        check(true, 'a tampered delivery is refused');
    }
    proc_terminate($receiver);

    $command = 'HARK_URL=' . escapeshellarg($url) . ' HARK_API_KEY=' . escapeshellarg($key) . ' ' . escapeshellarg(PHP_BINARY) . ' clients/php/examples/quickstart.php ' . escapeshellarg(speech('Thank you for calling, goodbye.'));
    $output = shell_exec("cd " . escapeshellarg($root) . " && {$command}");
    $lines = explode("\n", trim((string) $output));
    check(count($lines) === 1 && str_contains(strtolower($lines[0]), 'thank you'), 'the quickstart prints the transcript and nothing else');
} catch (Throwable $e) {
    check(false, get_class($e) . ': ' . $e->getMessage());
} finally {
    proc_terminate($server);
    proc_close($server);
    exec('rm -rf ' . escapeshellarg($folder));
}
echo $failures === 0 ? "all passed\n" : "{$failures} failed\n";
exit($failures === 0 ? 0 : 1);
