solve tests/tws/cube2.tws --scramble-file tests/diagnostics/tws_bad_scramble.scr
