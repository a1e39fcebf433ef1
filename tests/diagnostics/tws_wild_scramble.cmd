solve tests/tws/cube2_wild.tws --tws-scrambles tests/diagnostics/tws_wild_scramble.scr
