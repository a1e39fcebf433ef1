solve tests/tws/cube2.tws --tws-scrambles tests/diagnostics/tws_wild_matters.scr
