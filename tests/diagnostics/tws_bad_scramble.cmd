solve tests/tws/cube2.tws --tws-scrambles tests/diagnostics/tws_bad_scramble.scr
