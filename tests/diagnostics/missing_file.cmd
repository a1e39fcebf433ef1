check tests/diagnostics/no_such_file.pz
