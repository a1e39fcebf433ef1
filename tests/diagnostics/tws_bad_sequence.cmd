run tests/tws/cube2.tws "R U2, Q R'"
