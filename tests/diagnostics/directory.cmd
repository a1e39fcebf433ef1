check tests/diagnostics
