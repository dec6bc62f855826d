<?php

declare(strict_types=1);

namespace Hark;

/** Base of every exception this client throws. */
class HarkException extends \RuntimeException
{
}

/** The server answered with an error (problem+json): its status, code, detail and request id. */
class ApiException extends HarkException
{
    /** @param array<string, mixed> $problem */
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        public readonly string $detail,
        public readonly ?string $requestId,
        public readonly array $problem = [],
    ) {
        parent::__construct("{$status} {$errorCode}: {$detail}", $status);
    }

    /** @param array<string, mixed> $problem */
    public static function fromResponse(int $status, array $problem, ?string $requestId): self
    {
        $class = match (true) {
            $status === 400 => BadRequestException::class,
            $status === 401 => AuthenticationException::class,
            $status === 403 => PermissionDeniedException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            $status === 422 => UnprocessableEntityException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ServerException::class,
            default => self::class,
        };
        $code = is_string($problem['code'] ?? null) ? $problem['code'] : 'unknown';
        $detail = is_string($problem['detail'] ?? null) ? $problem['detail'] : (is_string($problem['title'] ?? null) ? $problem['title'] : '');
        $id = is_string($problem['request_id'] ?? null) ? $problem['request_id'] : $requestId;
        return new $class($status, $code, $detail, $id, $problem);
    }
}

class BadRequestException extends ApiException
{
}

class AuthenticationException extends ApiException
{
}

class PermissionDeniedException extends ApiException
{
}

class NotFoundException extends ApiException
{
}

class ConflictException extends ApiException
{
}

class UnprocessableEntityException extends ApiException
{
}

class RateLimitException extends ApiException
{
}

class ServerException extends ApiException
{
}

/** No answer: the connection failed or the time limit passed. */
class ConnectionException extends HarkException
{
}

/** A waiting helper gave up, or the work it waited for failed. */
class WaitException extends HarkException
{
}

/** A webhook delivery whose signature or timestamp does not check. */
class WebhookVerificationException extends HarkException
{
}
