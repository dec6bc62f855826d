<?php

declare(strict_types=1);

namespace Hark;

/** A request body curl reads piece by piece (a streamed upload), with its content type. */
final class StreamBody
{
    /** @param \Closure $read curl's read callback: ($curl, $in, int $length): string */
    public function __construct(public readonly string $contentType, public readonly \Closure $read)
    {
    }
}
