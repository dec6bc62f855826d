<?php

declare(strict_types=1);

// PSR-4 loading of the Hark namespace from this folder, for use without Composer.
spl_autoload_register(static function (string $class): void {
    if (!str_starts_with($class, 'Hark\\')) {
        return;
    }
    $name = substr($class, strlen('Hark\\'));
    $file = __DIR__ . '/' . str_replace('\\', '/', $name) . '.php';
    if (is_file($file)) {
        require $file;
        return;
    }
    // The exception classes live together in Exceptions.php.
    if (str_ends_with($name, 'Exception')) {
        require_once __DIR__ . '/Exceptions.php';
    }
});
