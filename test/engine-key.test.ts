// The operator's OpenAI key goes only to the operator's own server: a scenario's base_url is any
// API user's choice, and the key sent there would be theirs to read.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { engineKeyFor, postToEngine } from '../src/engines/openai-endpoint.ts';

const config = (baseUrl: string) => loadConfig({ HARK_OPENAI_API_KEY: 'sk-operator', HARK_OPENAI_BASE_URL: baseUrl, HARK_IMPORT_ALLOW_PRIVATE: '1' });

test('the key goes with the operator\'s own server only, however its address is written', () => {
  const operator = config('https://llm.example.com/v1');
  assert.equal(engineKeyFor(operator, null), 'sk-operator', 'no base_url of its own: the operator\'s server');
  assert.equal(engineKeyFor(operator, 'https://llm.example.com/v1/'), 'sk-operator');
  assert.equal(engineKeyFor(operator, 'https://LLM.example.com:443/v1'), 'sk-operator');
  for (const other of ['https://evil.example.com/v1', 'http://llm.example.com/v1', 'https://llm.example.com:8443/v1', 'https://llm.example.com/other', 'https://llm.example.com.evil.example/v1', 'not a url']) {
    assert.equal(engineKeyFor(operator, other), null, other);
  }
  assert.equal(engineKeyFor(loadConfig({ HARK_OPENAI_API_KEY: 'sk-operator' }), 'https://llm.example.com/v1'), null, 'no operator server: a scenario\'s server gets no key');
});

test('a request to a server a scenario names carries no key; one to the operator\'s does', async () => {
  const seen: (string | undefined)[] = [];
  const server = http.createServer((request, response) => {
    seen.push(request.headers.authorization);
    request.resume().on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"ok"}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const own = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  try {
    const signal = new AbortController().signal;
    await postToEngine(config('https://llm.example.com/v1'), own, '/audio/transcriptions', '{}', signal);
    await postToEngine(config(own), own, '/audio/transcriptions', '{}', signal);
    await postToEngine(config(own), null, '/audio/transcriptions', '{}', signal);
    assert.deepEqual(seen, [undefined, 'Bearer sk-operator', 'Bearer sk-operator']);
  } finally {
    server.close();
  }
});
