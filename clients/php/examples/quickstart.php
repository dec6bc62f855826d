<?php
// Upload an audio file, transcribe it with the workspace's default scenario, print the text.
//   HARK_URL=http://127.0.0.1:8080 HARK_API_KEY=hark_… php clients/php/examples/quickstart.php call.wav

declare(strict_types=1);

require __DIR__ . '/../src/autoload.php';

if ($argc !== 2) {
    fwrite(STDERR, "usage: quickstart.php AUDIO_FILE\n");
    exit(2);
}
echo (new Hark\Client())->transcribe($argv[1])['text'], "\n";
