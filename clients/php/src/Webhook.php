<?php

declare(strict_types=1);

namespace Hark;

/** Checks a webhook delivery: Standard Webhooks headers against the raw body and the whsec_ secret. */
final class Webhook
{
    /**
     * Returns the event when the delivery is genuine; throws WebhookVerificationException otherwise.
     *
     * @param array<string, string|array<int, string>> $headers
     * @return array<string, mixed>
     */
    public static function verify(string $rawBody, array $headers, string $secret, int $toleranceSeconds = 300): array
    {
        $lower = [];
        foreach ($headers as $name => $value) {
            $lower[strtolower((string) $name)] = is_array($value) ? (string) ($value[0] ?? '') : (string) $value;
        }
        $id = $lower['webhook-id'] ?? '';
        $timestamp = $lower['webhook-timestamp'] ?? '';
        $signatures = $lower['webhook-signature'] ?? '';
        if ($id === '' || $timestamp === '' || $signatures === '') {
            throw new WebhookVerificationException('missing webhook-id, webhook-timestamp or webhook-signature');
        }
        if (!ctype_digit($timestamp) || abs(time() - (int) $timestamp) > $toleranceSeconds) {
            throw new WebhookVerificationException('the timestamp is too far from now');
        }
        $key = base64_decode(str_starts_with($secret, 'whsec_') ? substr($secret, 6) : $secret, true);
        if ($key === false) {
            throw new WebhookVerificationException('the secret is not base64');
        }
        $expected = base64_encode(hash_hmac('sha256', "{$id}.{$timestamp}.{$rawBody}", $key, true));
        foreach (explode(' ', $signatures) as $entry) {
            [$version, $value] = array_pad(explode(',', $entry, 2), 2, '');
            if ($version === 'v1' && hash_equals($expected, $value)) {
                $event = json_decode($rawBody, true);
                if (!is_array($event)) {
                    throw new WebhookVerificationException('the body is not a JSON object');
                }
                return $event;
            }
        }
        throw new WebhookVerificationException('no signature matches');
    }
}
